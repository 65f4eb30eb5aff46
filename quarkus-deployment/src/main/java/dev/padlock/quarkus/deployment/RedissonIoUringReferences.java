package dev.padlock.quarkus.deployment;

import dev.padlock.quarkus.runtime.internal.RedissonWithoutIoUring;
import io.quarkus.gizmo.Gizmo;
import java.util.List;
import java.util.function.BiFunction;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Rewrites, for a native image, the references to Netty 4.2's io_uring classes that remain in Redisson's code once
 * {@code ServiceManager.createIOUringGroup} is substituted: class constants ({@code IoUringSocketChannel.class},
 * {@code IoUringDatagramChannel.class}) in {@code ServiceManager}'s constructor and {@code RedisClient}'s TCP options,
 * and {@code IoUringChannelOption} constants in the latter. With Quarkus's Netty 4.1 those classes do not exist, and
 * native-image, which links at build time everything a reachable method names, stops at the first ("Discovered
 * unresolved type during parsing: io.netty.channel.uring.IoUringSocketChannel ... parsing
 * org.redisson.connection.MasterSlaveConnectionManager.&lt;init&gt;", redisson#7255). See {@link
 * RedissonWithoutIoUring} for what they become. Each rewrite keeps the value's type on the operand stack, so the
 * method's stack map frames stay valid.
 */
final class RedissonIoUringReferences {

    /** The Redisson classes that name io_uring classes outside the substituted method (Redisson 4.7). */
    static final List<String> CLASSES =
            List.of("org.redisson.connection.ServiceManager", "org.redisson.client.RedisClient");

    static final String IO_URING_PACKAGE = "io/netty/channel/uring/";

    /** A class every Netty 4.2 with io_uring has: when the application has it, nothing is rewritten. */
    static final String PROBE = "io.netty.channel.uring.IoUringSocketChannel";

    private static final String PLACEHOLDER = Type.getInternalName(RedissonWithoutIoUring.class);

    private RedissonIoUringReferences() {}

    static BiFunction<String, ClassVisitor, ClassVisitor> rewriter() {
        return (className, next) -> new ClassVisitor(Gizmo.ASM_API_VERSION, next) {
            @Override
            public MethodVisitor visitMethod(
                    int access, String name, String descriptor, String signature, String[] exceptions) {
                return new MethodVisitor(
                        Gizmo.ASM_API_VERSION, super.visitMethod(access, name, descriptor, signature, exceptions)) {
                    @Override
                    public void visitLdcInsn(Object value) {
                        if (value instanceof Type type
                                && type.getSort() == Type.OBJECT
                                && type.getInternalName().startsWith(IO_URING_PACKAGE)) {
                            super.visitLdcInsn(Type.getObjectType(PLACEHOLDER));
                        } else {
                            super.visitLdcInsn(value);
                        }
                    }

                    @Override
                    public void visitFieldInsn(int opcode, String owner, String field, String fieldDescriptor) {
                        if (opcode == Opcodes.GETSTATIC
                                && owner.startsWith(IO_URING_PACKAGE)
                                && fieldDescriptor.equals("Lio/netty/channel/ChannelOption;")) {
                            super.visitMethodInsn(
                                    Opcodes.INVOKESTATIC, PLACEHOLDER, "channelOption", "()" + fieldDescriptor, false);
                        } else {
                            super.visitFieldInsn(opcode, owner, field, fieldDescriptor);
                        }
                    }
                };
            }
        };
    }
}
