package dev.padlock.core.programmatic;

import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Code run through {@code Locks}, shaped as the invocation an operation proceeds with: its key values are the
 * "arguments" the keys render from, the code is what {@link #proceed} runs. Nothing else of an interception is
 * there: no target, no method.
 */
final class CallableInvocation implements InvocationContext {

    private final Object[] keys;
    private final Callable<?> code;
    private Map<String, Object> contextData;

    CallableInvocation(Object[] keys, Callable<?> code) {
        this.keys = keys;
        this.code = code;
    }

    @Override
    public Object[] getParameters() {
        return keys;
    }

    @Override
    public Object proceed() throws Exception {
        return code.call();
    }

    @Override
    public Object getTarget() {
        return null;
    }

    @Override
    public Object getTimer() {
        return null;
    }

    @Override
    public Method getMethod() {
        return null;
    }

    @Override
    public Constructor<?> getConstructor() {
        return null;
    }

    @Override
    public void setParameters(Object[] params) {
        throw new UnsupportedOperationException("Code run through Locks has no parameters to replace");
    }

    @Override
    public Map<String, Object> getContextData() {
        if (contextData == null) {
            contextData = new HashMap<>();
        }
        return contextData;
    }
}
