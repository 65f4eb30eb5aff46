package dev.padlock.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.Problems;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A client built from {@code padlock.redis.address=redis://redis_master:<port>} connects and locks through that
 * name. No DNS or hosts file here knows a name with '_', so the client's resolver maps it (Redisson's own hook for
 * that); everything else is what Padlock's client does: Padlock's settings, Redisson's parsing of the address,
 * its connection and a lock on a real Redis.
 */
@ExtendWith(RedisExtension.class)
class UnderscoreHostConnectionTest {

    @Test
    void locksThroughAHostNameWithAnUnderscore(RedisServer server) {
        Problems problems = new Problems();
        Config config = RedissonConfigs.build(
                RedisConnectionReader.read(
                        ConfigView.of(Map.of("padlock.redis.address", "redis://redis_master:" + server.port())),
                        problems),
                getClass().getClassLoader());
        assertThat(problems.list()).isEmpty();

        List<String> resolved = new CopyOnWriteArrayList<>();
        config.setAddressResolverGroupFactory((datagram, socket, nameServers) -> new AddressResolverGroup<>() {
            @Override
            protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
                return new InetNameResolver(executor) {
                    @Override
                    protected void doResolve(String host, Promise<InetAddress> promise) {
                        try {
                            promise.setSuccess(lookUp(host));
                        } catch (UnknownHostException e) {
                            promise.setFailure(e);
                        }
                    }

                    @Override
                    protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
                        try {
                            promise.setSuccess(List.of(lookUp(host)));
                        } catch (UnknownHostException e) {
                            promise.setFailure(e);
                        }
                    }

                    private InetAddress lookUp(String host) throws UnknownHostException {
                        resolved.add(host);
                        return InetAddress.getByName(host.equals("redis_master") ? server.host() : host);
                    }
                }.asAddressResolver();
            }
        });

        RedissonClient client = Redisson.create(config);
        try {
            RLock lock = client.getLock("padlock:underscore");
            assertThat(lock.tryLock()).isTrue();
            assertThat(server.command("EXISTS", "padlock:underscore")).isEqualTo(1L);
            lock.unlock();
        } finally {
            client.shutdown();
        }
        assertThat(resolved).contains("redis_master");
    }
}
