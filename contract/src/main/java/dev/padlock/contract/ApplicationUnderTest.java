package dev.padlock.contract;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The application a scenario runs in: its bean classes and its configuration. The runner adds the address of the
 * Redis it started, as {@value #REDIS_ADDRESS} and, unless the configuration names another, as
 * {@code padlock.redis.address}. Configuration is kept sorted, so every runner applies it in the same order.
 */
public record ApplicationUnderTest(List<Class<?>> beans, Map<String, String> config) {

    /** The key under which the runner gives the address of its Redis, for beans that connect on their own. */
    public static final String REDIS_ADDRESS = "padlock-contract.redis-address";

    public ApplicationUnderTest {
        beans = List.copyOf(beans);
        config = Collections.unmodifiableMap(new TreeMap<>(config));
    }

    /** An application of these beans and no configuration of its own. */
    public static ApplicationUnderTest of(Class<?>... beans) {
        return new ApplicationUnderTest(Arrays.asList(beans), Map.of());
    }

    /** This application with one more configuration property. */
    public ApplicationUnderTest with(String key, String value) {
        Map<String, String> more = new TreeMap<>(config);
        more.put(key, value);
        return new ApplicationUnderTest(beans, more);
    }

    /** This application with more beans, such as the ones a runtime needs to offer what the scenario looks up. */
    public ApplicationUnderTest and(Class<?>... more) {
        List<Class<?>> all = new ArrayList<>(beans);
        all.addAll(Arrays.asList(more));
        return new ApplicationUnderTest(all, config);
    }

    /** One application with the beans and configuration of all of these. */
    public static ApplicationUnderTest together(List<ApplicationUnderTest> applications) {
        List<Class<?>> beans = new ArrayList<>();
        Map<String, String> config = new TreeMap<>();
        for (ApplicationUnderTest application : applications) {
            beans.addAll(application.beans());
            config.putAll(application.config());
        }
        return new ApplicationUnderTest(beans, config);
    }

    public Class<?>[] beanClasses() {
        return beans.toArray(Class<?>[]::new);
    }
}
