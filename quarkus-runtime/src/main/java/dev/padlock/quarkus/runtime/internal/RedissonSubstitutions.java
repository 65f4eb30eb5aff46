package dev.padlock.quarkus.runtime.internal;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;
import io.netty.channel.EventLoopGroup;
import org.redisson.config.Config;

/**
 * Redisson 4.x is built against Netty 4.2 and reaches Netty-4.2-only io_uring classes
 * ({@code MultiThreadIoEventLoopGroup}, {@code IoHandlerFactory}, {@code io.netty.channel.uring.*}); Quarkus
 * ships Netty 4.1, where they do not exist, and a native image links every reachable reference at build
 * time. This substitution cuts the io_uring event loop's creation; the class constants and channel options that
 * remain are rewritten at build time ({@link RedissonWithoutIoUring}). NIO and epoll still work. Choosing
 * {@code transportMode: IO_URING} in a Redisson YAML then fails with a clear message instead.
 */
final class RedissonSubstitutions {

    private RedissonSubstitutions() {}

    @TargetClass(className = "org.redisson.connection.ServiceManager")
    static final class ServiceManagerWithoutIoUring {
        @Substitute
        private static EventLoopGroup createIOUringGroup(Config cfg) {
            throw new UnsupportedOperationException(RedissonWithoutIoUring.MESSAGE);
        }
    }
}
