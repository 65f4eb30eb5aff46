package dev.padlock.quarkus.runtime.internal;

import io.netty.channel.ChannelOption;

/**
 * What a native image's copy of Redisson refers to instead of Netty 4.2's io_uring classes, which Quarkus's Netty 4.1
 * lacks and which a native image must link at build time. Padlock's build rewrites Redisson's references to them
 * ({@code PadlockNativeProcessor}): a class constant {@code IoUringSocketChannel.class} becomes this class, which no
 * channel ever is, so Redisson's "is this an io_uring channel?" checks answer no; an {@code IoUringChannelOption}
 * constant becomes {@link #channelOption()}, which throws. Nothing here is reached unless a Redisson YAML asks for
 * {@code transportMode: IO_URING}, and that fails earlier with {@link #MESSAGE}.
 */
public final class RedissonWithoutIoUring {

    /** Why io_uring cannot be used, and what to use instead. */
    public static final String MESSAGE = "Redisson's io_uring transport needs Netty 4.2, which a Quarkus native image"
            + " does not have; use transportMode NIO (the default) or EPOLL";

    private RedissonWithoutIoUring() {}

    /** Stands in for {@code IoUringChannelOption.TCP_KEEPCNT} and its siblings; never returns. */
    public static ChannelOption<Integer> channelOption() {
        throw new UnsupportedOperationException(MESSAGE);
    }
}
