package dev.padlock.testing;

import dev.padlock.redisserver.ContainerRuntimeHint;
import dev.padlock.redisserver.RedisBinary;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where the Redis for a test comes from: an address, a redis-server binary, a container, in that
 * order. The decision is a pure function of its inputs so the order itself is unit tested; only
 * {@link #detect} touches the real system properties, environment, PATH and container runtime.
 */
public final class RedisSource {
    static final String ADDRESS_PROPERTY = "padlock.test.redis";
    static final String ADDRESS_ENV = "PADLOCK_TEST_REDIS";
    static final String BINARY_PROPERTY = "padlock.test.redis-server";
    static final String BINARY_ENV = "PADLOCK_TEST_REDIS_SERVER";
    static final String IMAGE_PROPERTY = "padlock.test.redis-image";
    static final String IMAGE_ENV = "PADLOCK_TEST_REDIS_IMAGE";
    static final String DEFAULT_IMAGE = "redis:7";

    static final String WAY_ADDRESS = "-Dpadlock.test.redis=redis://host:port (or PADLOCK_TEST_REDIS)";
    static final String WAY_BINARY = "install redis-server (apt install redis-server / brew install redis) or point"
            + " -Dpadlock.test.redis-server=/path/to/redis-server (or PADLOCK_TEST_REDIS_SERVER)";
    static final String WAY_CONTAINER = "start Docker so Testcontainers can run redis:7"
            + " (needs org.testcontainers:testcontainers on the test classpath)";

    private static final String TESTCONTAINERS_PROBE_CLASS = "org.testcontainers.DockerClientFactory";
    private static volatile Boolean containerRuntimeAnswers;

    enum Kind {
        ADDRESS,
        BINARY,
        CONTAINER
    }

    enum Need {
        SINGLE_NODE("a single Redis node"),
        CONFIGURED_NODE("a Redis node with a password, ACL users or TLS"),
        CLUSTER("a Redis cluster"),
        SENTINEL("a Redis sentinel setup");

        private final String description;

        Need(String description) {
            this.description = description;
        }
    }

    private final Kind kind;
    private final String address;
    private final Path binary;
    private final String origin;
    private final String image;

    private RedisSource(Kind kind, String address, Path binary, String origin) {
        this(kind, address, binary, origin, null);
    }

    private RedisSource(Kind kind, String address, Path binary, String origin, String image) {
        this.kind = kind;
        this.address = address;
        this.binary = binary;
        this.origin = origin;
        this.image = image;
    }

    static RedisSource detect(Need need) {
        return resolve(
                need,
                System::getProperty,
                System::getenv,
                RedisBinary::findOnPath,
                RedisSource::containerRuntimeAnswers);
    }

    /**
     * @param properties system properties by name (null when unset)
     * @param environment environment variables by name (null when unset)
     * @param pathLookup finds redis-server on the PATH; only asked when no binary is configured
     * @param containerRuntime whether a container runtime answers; only asked as the last resort,
     *     because probing Docker is slow and noisy
     */
    static RedisSource resolve(
            Need need,
            Function<String, String> properties,
            Function<String, String> environment,
            Supplier<Optional<Path>> pathLookup,
            BooleanSupplier containerRuntime) {
        String addressProperty = nonBlank(properties.apply(ADDRESS_PROPERTY));
        String addressEnv = nonBlank(environment.apply(ADDRESS_ENV));
        if (need == Need.SINGLE_NODE) {
            if (addressProperty != null) {
                return new RedisSource(Kind.ADDRESS, addressProperty, null, "-D" + ADDRESS_PROPERTY);
            }
            if (addressEnv != null) {
                return new RedisSource(Kind.ADDRESS, addressEnv, null, "environment variable " + ADDRESS_ENV);
            }
        }
        String binaryProperty = nonBlank(properties.apply(BINARY_PROPERTY));
        if (binaryProperty != null) {
            return new RedisSource(Kind.BINARY, null, Paths.get(binaryProperty), "-D" + BINARY_PROPERTY);
        }
        String binaryEnv = nonBlank(environment.apply(BINARY_ENV));
        if (binaryEnv != null) {
            return new RedisSource(Kind.BINARY, null, Paths.get(binaryEnv), "environment variable " + BINARY_ENV);
        }
        Optional<Path> onPath = pathLookup.get();
        if (onPath.isPresent()) {
            return new RedisSource(Kind.BINARY, null, onPath.get(), RedisBinary.NAME + " on the PATH");
        }
        boolean containers = containerRuntime.getAsBoolean();
        if (need == Need.SINGLE_NODE) {
            if (containers) {
                return new RedisSource(
                        Kind.CONTAINER, null, null, "Testcontainers", containerImage(properties, environment));
            }
            throw new NoRedisAvailableException("No Redis is available for the tests, and they must not be skipped."
                    + " Get one in any of these ways:\n  1. " + WAY_ADDRESS + "\n  2. " + WAY_BINARY + "\n  3. "
                    + WAY_CONTAINER);
        }
        StringBuilder message = new StringBuilder("A test needs ")
                .append(need.description)
                .append(", which the harness can only start from a redis-server binary, and none was found. ")
                .append("To get one: ")
                .append(WAY_BINARY)
                .append('.');
        if (addressProperty != null || addressEnv != null) {
            message.append(" The Redis address given by ")
                    .append(addressProperty != null ? "-D" + ADDRESS_PROPERTY : ADDRESS_ENV)
                    .append(" serves only single-node tests.");
        }
        if (containers) {
            message.append(" A container runtime answers, but containers serve only single-node tests.");
        }
        throw new NoRedisAvailableException(message.toString());
    }

    /** The image a container comes from: {@link #containerImage(Function, Function)} of this JVM. */
    static String containerImage() {
        return containerImage(System::getProperty, System::getenv);
    }

    /**
     * The image a container comes from: {@code -Dpadlock.test.redis-image}, else {@code PADLOCK_TEST_REDIS_IMAGE},
     * else {@code redis:7}. CI's Valkey run names a Valkey image here, so that its container tests do not run on Redis.
     */
    static String containerImage(Function<String, String> properties, Function<String, String> environment) {
        String property = nonBlank(properties.apply(IMAGE_PROPERTY));
        if (property != null) {
            return property;
        }
        String env = nonBlank(environment.apply(IMAGE_ENV));
        return env != null ? env : DEFAULT_IMAGE;
    }

    /** Whether a container runtime answers Testcontainers here: asked once per JVM, and only on a hint of one. */
    static boolean containerRuntimeAnswers() {
        Boolean known = containerRuntimeAnswers;
        if (known == null) {
            // asked only on a hint of a runtime: Testcontainers' probe is slow and logs an ERROR when nothing answers
            known = testcontainersPresent()
                    && ContainerRuntimeHint.find().isPresent()
                    && TestcontainersRedis.runtimeAnswers();
            containerRuntimeAnswers = known;
        }
        return known;
    }

    /** Why there is no container: {@code what} failed, and how to get a runtime. */
    static String noContainerRuntime(String what) {
        return what + ", but no container runtime answers ("
                + ContainerRuntimeHint.find()
                        .map(hint -> "Testcontainers could not use " + hint)
                        .orElse("no DOCKER_HOST, no Docker or Podman socket")
                + "). Start Docker or Podman, or set DOCKER_HOST; on a machine without one, Padlock's .ci/run shows"
                + " how to start Debian's engine with its files under a temporary directory.";
    }

    static boolean testcontainersPresent() {
        try {
            Class.forName(TESTCONTAINERS_PROBE_CLASS, false, RedisSource.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static String nonBlank(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    Kind kind() {
        return kind;
    }

    String address() {
        return address;
    }

    Path binary() {
        return binary;
    }

    String origin() {
        return origin;
    }

    /** The image of a {@link Kind#CONTAINER} source; null for the others. */
    String image() {
        return image;
    }

    @Override
    public String toString() {
        switch (kind) {
            case ADDRESS:
                return "Redis at " + address + " (from " + origin + ")";
            case BINARY:
                return "redis-server binary " + binary + " (from " + origin + ")";
            default:
                return image + " container through Testcontainers";
        }
    }
}
