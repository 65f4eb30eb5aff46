package dev.padlock.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The interceptor binding is read from what the container hands over, with fallbacks for older containers. */
class BindingFallbackTest {

    @Locked("on-type")
    static class Bean {
        void inherited() {}

        @Locked("on-method")
        void own() {}
    }

    @Locked("from-container")
    static class Holder {}

    /** An Interceptors 2.1 container: no getInterceptorBinding, maybe the bindings in context data. */
    static final class OldContainerContext implements InvocationContext {
        private final Method method;
        private final Map<String, Object> data = new HashMap<>();

        OldContainerContext(Method method) {
            this.method = method;
        }

        @Override
        public <T extends java.lang.annotation.Annotation> T getInterceptorBinding(Class<T> type) {
            throw new UnsupportedOperationException();
        }

        public Object getTarget() {
            return new Bean();
        }

        public Object getTimer() {
            return null;
        }

        public Method getMethod() {
            return method;
        }

        public Constructor<?> getConstructor() {
            return null;
        }

        public Object[] getParameters() {
            return new Object[0];
        }

        public void setParameters(Object[] params) {}

        public Map<String, Object> getContextData() {
            return data;
        }

        public Object proceed() {
            return null;
        }
    }

    @Test
    void usesBindingsTheContainerPutInContextData() throws Exception {
        OldContainerContext ctx = new OldContainerContext(Bean.class.getDeclaredMethod("own"));
        ctx.getContextData()
                .put("org.jboss.weld.interceptor.bindings", Set.of(Holder.class.getAnnotation(Locked.class)));
        assertThat(PadlockEngine.binding(ctx).value()).isEqualTo("from-container");
    }

    @Test
    void elseTheMethodsAnnotationThenTheTargetClasss() throws Exception {
        assertThat(PadlockEngine.binding(new OldContainerContext(Bean.class.getDeclaredMethod("own")))
                        .value())
                .isEqualTo("on-method");
        assertThat(PadlockEngine.binding(new OldContainerContext(Bean.class.getDeclaredMethod("inherited")))
                        .value())
                .isEqualTo("on-type");
    }
}
