package dev.padlock.quarkus.deployment;

import dev.padlock.core.shape.MethodShape;
import dev.padlock.core.shape.PropertyRule;
import dev.padlock.core.shape.ReflectedShapes;
import dev.padlock.core.shape.TypeShape;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.FieldInfo;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.RecordComponentInfo;
import org.jboss.jandex.Type;

/**
 * {@link MethodShape} and {@link TypeShape} over Jandex, so the build validates {@code @Locked} methods with the
 * same rules and messages as the portable extension, without loading application classes. Types outside the
 * index (the JDK's) are looked at through the build's class loader.
 */
final class JandexShapes {

    private JandexShapes() {}

    static JandexMethod of(MethodInfo method, IndexView index) {
        return new JandexMethod(method, index);
    }

    record JandexMethod(MethodInfo method, IndexView index) implements MethodShape {
        @Override
        public String declaringClass() {
            return method.declaringClass().name().toString();
        }

        @Override
        public String name() {
            return method.name();
        }

        @Override
        public List<Parameter> parameters() {
            List<Parameter> result = new ArrayList<>();
            for (int i = 0; i < method.parametersCount(); i++) {
                result.add(
                        new Parameter(method.parameterName(i), new JandexType(method.parameterType(i), index, null)));
            }
            return result;
        }

        @Override
        public TypeShape returnType() {
            return new JandexType(method.returnType(), index, null);
        }

        @Override
        public boolean isInterceptable() {
            return MethodShape.interceptable(method.flags());
        }
    }

    /**
     * A type, and the member that led to it when reached through a property (a {@link MethodInfo} or
     * {@link FieldInfo}), so the build can register exactly that member for reflection in native images.
     */
    record JandexType(Type type, IndexView index, Object via) implements TypeShape {
        private static final DotName OBJECT = DotName.createSimple(Object.class);

        @Override
        public String name() {
            return type.name().toString();
        }

        @Override
        public boolean isPrimitive() {
            return type.kind() == Type.Kind.PRIMITIVE;
        }

        @Override
        public boolean isArray() {
            return type.kind() == Type.Kind.ARRAY;
        }

        @Override
        public boolean isAbstract() {
            if (!isClass()) {
                return false;
            }
            ClassInfo info = index.getClassByName(type.name());
            if (info == null) {
                return loaded(type.name())
                        .map(c -> ReflectedShapes.of(c).isAbstract())
                        .orElse(false);
            }
            return Modifier.isInterface(info.flags()) || Modifier.isAbstract(info.flags());
        }

        /**
         * Walks the superclasses in the index (a record's or an application class's own {@code toString()} is
         * there); the first one outside it, usually the JDK's, is asked through reflection.
         */
        @Override
        public ToStringSource toStringSource() {
            if (!isClass()) {
                return ToStringSource.UNKNOWN;
            }
            for (DotName name = type.name(); name != null; ) {
                if (name.equals(OBJECT)) {
                    return ToStringSource.OBJECT;
                }
                ClassInfo info = index.getClassByName(name);
                if (info == null) {
                    return loaded(name)
                            .map(c -> ReflectedShapes.of(c).toStringSource())
                            .orElse(ToStringSource.UNKNOWN);
                }
                if (Modifier.isInterface(info.flags())) {
                    return ToStringSource.UNKNOWN;
                }
                MethodInfo toString = info.method("toString");
                if (toString != null && !Modifier.isStatic(toString.flags())) {
                    return ToStringSource.DECLARED;
                }
                name = info.superName();
            }
            return ToStringSource.UNKNOWN;
        }

        private boolean isClass() {
            return type.kind() == Type.Kind.CLASS || type.kind() == Type.Kind.PARAMETERIZED_TYPE;
        }

        private static Optional<Class<?>> loaded(DotName name) {
            try {
                return Optional.of(Class.forName(
                        name.toString(), false, Thread.currentThread().getContextClassLoader()));
            } catch (ClassNotFoundException | LinkageError e) {
                return Optional.empty(); // cannot be looked at: not judged
            }
        }

        @Override
        public boolean isAssignableTo(String className) {
            if (type.kind() != Type.Kind.CLASS && type.kind() != Type.Kind.PARAMETERIZED_TYPE) {
                return false;
            }
            return assignable(type.name(), DotName.createSimple(className));
        }

        private boolean assignable(DotName from, DotName to) {
            if (from.equals(to)) {
                return true;
            }
            ClassInfo info = index.getClassByName(from);
            if (info == null) {
                return loadedAssignable(from.toString(), to.toString());
            }
            if (info.superName() != null && assignable(info.superName(), to)) {
                return true;
            }
            for (DotName i : info.interfaceNames()) {
                if (assignable(i, to)) {
                    return true;
                }
            }
            return false;
        }

        private static boolean loadedAssignable(String from, String to) {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            try {
                Class<?> f = Class.forName(from, false, loader);
                Class<?> t = Class.forName(to, false, loader);
                return t.isAssignableFrom(f);
            } catch (ClassNotFoundException | LinkageError e) {
                return false; // a type the application cannot see is not one it returns
            }
        }

        @Override
        public Optional<JandexType> property(String property) {
            if (type.kind() != Type.Kind.CLASS && type.kind() != Type.Kind.PARAMETERIZED_TYPE) {
                return Optional.empty();
            }
            ClassInfo owner = index.getClassByName(type.name());
            if (owner == null) {
                return loadedProperty(property);
            }
            for (String getter : PropertyRule.getterNames(property)) {
                for (ClassInfo c = owner; c != null; c = superOf(c)) {
                    MethodInfo m = c.method(getter);
                    if (m != null
                            && Modifier.isPublic(m.flags())
                            && !Modifier.isStatic(m.flags())
                            && m.returnType().kind() != Type.Kind.VOID) {
                        return Optional.of(new JandexType(m.returnType(), index, m));
                    }
                }
            }
            if (owner != null && owner.isRecord()) {
                RecordComponentInfo rc = owner.recordComponent(property);
                if (rc != null) {
                    return Optional.of(new JandexType(rc.type(), index, rc.accessor()));
                }
            }
            for (ClassInfo c = owner; c != null; c = superOf(c)) {
                FieldInfo f = c.field(property);
                if (f != null && Modifier.isPublic(f.flags()) && !Modifier.isStatic(f.flags())) {
                    return Optional.of(new JandexType(f.type(), index, f));
                }
            }
            return Optional.empty();
        }

        /** A class outside the index: ask reflection, with the same rule. */
        private Optional<JandexType> loadedProperty(String property) {
            try {
                Class<?> c = Class.forName(
                        type.name().toString(), false, Thread.currentThread().getContextClassLoader());
                return ReflectedShapes.of(c)
                        .property(property)
                        .map(found -> new JandexType(
                                Type.create(DotName.createSimple(found.type().getName()), kindOf(found.type())),
                                index,
                                found.via()));
            } catch (ClassNotFoundException | LinkageError e) {
                return Optional.empty();
            }
        }

        private static Type.Kind kindOf(Class<?> c) {
            return c.isPrimitive() ? Type.Kind.PRIMITIVE : c.isArray() ? Type.Kind.ARRAY : Type.Kind.CLASS;
        }

        private ClassInfo superOf(ClassInfo c) {
            return c.superName() == null ? null : index.getClassByName(c.superName());
        }
    }
}
