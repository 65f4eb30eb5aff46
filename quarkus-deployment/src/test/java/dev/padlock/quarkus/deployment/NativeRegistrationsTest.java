package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.arc.Unremovable;
import io.quarkus.builder.BuildContext;
import io.quarkus.builder.BuildStep;
import io.quarkus.deployment.builditem.ExtensionSslNativeSupportBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveMethodBuildItem;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The build items Padlock produces for native images: Redisson's lock classes, the @Locked methods start-up
 * looks up, the types key templates read, and SSL. A step added to the build chain lists them; it runs in
 * another class loader than this test, so it hands its findings over in a system property.
 */
class NativeRegistrationsTest {

    static final String FOUND = "padlock.test.native-registrations";

    public record Customer(String id) {}

    public static class Order {
        public Customer getCustomer() {
            return new Customer("c");
        }
    }

    @ApplicationScoped
    @Unremovable // nothing injects it here; an unused bean needs no native registrations
    public static class Shipping {
        @Locked(value = "ship", key = "{order.customer.id}")
        public void ship(Order order, int priority) {}
    }

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Shipping.class, Order.class, Customer.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri())
            .addBuildChainCustomizer(chain -> chain.addBuildStep(new BuildStep() {
                        @Override
                        public void execute(BuildContext context) {
                            TreeSet<String> found = new TreeSet<>();
                            for (ReflectiveClassBuildItem item : context.consumeMulti(ReflectiveClassBuildItem.class)) {
                                for (String name : item.getClassNames()) {
                                    if (name.startsWith("org.redisson.Redisson")
                                            || name.contains("NativeRegistrationsTest")) {
                                        found.add("class " + name + (item.isMethods() ? " methods" : "")
                                                + (item.isFields() ? " fields" : ""));
                                    }
                                }
                            }
                            for (ReflectiveMethodBuildItem item :
                                    context.consumeMulti(ReflectiveMethodBuildItem.class)) {
                                if (item.getDeclaringClass().contains("NativeRegistrationsTest")) {
                                    found.add("method " + item.getDeclaringClass() + "#" + item.getName()
                                            + String.join(",", item.getParams()));
                                }
                            }
                            for (ExtensionSslNativeSupportBuildItem item :
                                    context.consumeMulti(ExtensionSslNativeSupportBuildItem.class)) {
                                found.add("ssl " + item.getExtension());
                            }
                            System.setProperty(FOUND, String.join("\n", found));
                            context.produce(new FeatureBuildItem("padlock-native-check"));
                        }
                    })
                    .consumes(ReflectiveClassBuildItem.class)
                    .consumes(ReflectiveMethodBuildItem.class)
                    .consumes(ExtensionSslNativeSupportBuildItem.class)
                    .produces(FeatureBuildItem.class)
                    .build());

    @Test
    void registersWhatANativeImageNeeds() {
        String test = NativeRegistrationsTest.class.getName();
        assertThat(System.getProperty(FOUND).lines())
                .contains(
                        "class org.redisson.RedissonFencedLock methods",
                        "class org.redisson.RedissonNonReentrantLock methods",
                        "class org.redisson.RedissonLock methods",
                        "method " + test + "$Shipping#ship" + test + "$Order,int",
                        "class " + test + "$Order methods fields",
                        "class " + test + "$Customer methods fields",
                        "ssl padlock");
    }
}
