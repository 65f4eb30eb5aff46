package dev.padlock.core.plan;

import dev.padlock.core.shape.MethodShape;
import dev.padlock.core.shape.ReflectedShapes;
import java.util.ArrayList;
import java.util.List;

/**
 * A lock taken in code ({@code Locks}) seen as the rules see a method: one {@code Object} parameter per key value,
 * returning what the code returns, named in messages by how it was called.
 */
record CodeShape(String display, int keyCount, Class<?> result) implements MethodShape {

    @Override
    public String declaringClass() {
        return "dev.padlock.Locks";
    }

    @Override
    public String name() {
        return "on";
    }

    @Override
    public List<Parameter> parameters() {
        List<Parameter> parameters = new ArrayList<>();
        for (int i = 0; i < keyCount; i++) {
            parameters.add(new Parameter("key" + i, ReflectedShapes.of(Object.class)));
        }
        return parameters;
    }

    @Override
    public ReflectedShapes.ReflectedType returnType() {
        return ReflectedShapes.of(result);
    }

    @Override
    public boolean isInterceptable() {
        return true;
    }
}
