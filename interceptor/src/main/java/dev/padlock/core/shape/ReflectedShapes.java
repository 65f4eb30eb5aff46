package dev.padlock.core.shape;

import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@link MethodShape} and {@link TypeShape} over reflection, used by the portable extension and at run time. */
public final class ReflectedShapes {

    private ReflectedShapes() {}

    public static MethodShape of(Method method) {
        return new ReflectedMethod(method, null);
    }

    /**
     * A method whose parameter names are known from elsewhere (the Quarkus build recorded them from Jandex),
     * so that run time sees the names the build validated even if the class file has none.
     */
    public static MethodShape of(Method method, List<String> parameterNames) {
        return new ReflectedMethod(method, parameterNames);
    }

    public static ReflectedType of(Class<?> type) {
        return new ReflectedType(type, null);
    }

    record ReflectedMethod(Method method, List<String> knownNames) implements MethodShape {
        @Override
        public String declaringClass() {
            return method.getDeclaringClass().getName();
        }

        @Override
        public String name() {
            return method.getName();
        }

        @Override
        public List<Parameter> parameters() {
            List<Parameter> result = new ArrayList<>();
            java.lang.reflect.Parameter[] params = method.getParameters();
            for (int i = 0; i < params.length; i++) {
                java.lang.reflect.Parameter p = params[i];
                String name = knownNames != null ? knownNames.get(i) : p.isNamePresent() ? p.getName() : null;
                result.add(new Parameter(name, of(p.getType())));
            }
            return result;
        }

        @Override
        public TypeShape returnType() {
            return of(method.getReturnType());
        }

        @Override
        public boolean isInterceptable() {
            return MethodShape.interceptable(method.getModifiers());
        }

        @Override
        public boolean isTimerCallback() {
            for (Annotation annotation : method.getAnnotations()) {
                if (TIMER_CALLBACKS.contains(annotation.annotationType().getName())) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final Set<String> TIMER_CALLBACKS =
            Set.of("jakarta.ejb.Schedule", "jakarta.ejb.Schedules", "jakarta.ejb.Timeout");

    /** A type, and the member that led to it when it was reached through a property. */
    public record ReflectedType(Class<?> type, Member via) implements TypeShape {
        @Override
        public String name() {
            return type.getName();
        }

        @Override
        public boolean isPrimitive() {
            return type.isPrimitive() && type != void.class;
        }

        @Override
        public boolean isArray() {
            return type.isArray();
        }

        @Override
        public boolean isAbstract() {
            // a primitive's or an array's Class reports ABSTRACT among its modifiers
            return !type.isPrimitive()
                    && !type.isArray()
                    && (type.isInterface() || Modifier.isAbstract(type.getModifiers()));
        }

        @Override
        public ToStringSource toStringSource() {
            if (type.isPrimitive() || type.isArray() || type.isInterface()) {
                return ToStringSource.UNKNOWN;
            }
            try {
                for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                    if (c == Object.class) {
                        return ToStringSource.OBJECT;
                    }
                    if (declaresToString(c)) {
                        return ToStringSource.DECLARED;
                    }
                }
            } catch (LinkageError e) {
                // a class whose members refer to a missing class: nothing to tell
            }
            return ToStringSource.UNKNOWN;
        }

        private static boolean declaresToString(Class<?> c) {
            try {
                return !Modifier.isStatic(c.getDeclaredMethod("toString").getModifiers());
            } catch (NoSuchMethodException e) {
                return false;
            }
        }

        @Override
        public boolean isAssignableTo(String className) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                if (c.getName().equals(className) || implementsNamed(c, className)) {
                    return true;
                }
            }
            return false;
        }

        private static boolean implementsNamed(Class<?> c, String className) {
            for (Class<?> i : c.getInterfaces()) {
                if (i.getName().equals(className) || implementsNamed(i, className)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public Optional<ReflectedType> property(String property) {
            if (type.isPrimitive() || type.isArray()) {
                return Optional.empty();
            }
            for (String getter : PropertyRule.getterNames(property)) {
                try {
                    Method m = type.getMethod(getter);
                    if (m.getReturnType() != void.class && !Modifier.isStatic(m.getModifiers())) {
                        return Optional.of(new ReflectedType(m.getReturnType(), m));
                    }
                } catch (NoSuchMethodException ignored) {
                    // try the next form
                }
            }
            if (type.isRecord()) {
                for (RecordComponent rc : type.getRecordComponents()) {
                    if (rc.getName().equals(property)) {
                        return Optional.of(new ReflectedType(rc.getType(), rc.getAccessor()));
                    }
                }
            }
            try {
                Field f = type.getField(property);
                if (!Modifier.isStatic(f.getModifiers())) {
                    return Optional.of(new ReflectedType(f.getType(), f));
                }
            } catch (NoSuchFieldException ignored) {
                // nothing matches
            }
            return Optional.empty();
        }
    }
}
