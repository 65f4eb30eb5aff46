package dev.padlock.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The shape of the {@link RedisCluster} that {@link RedisExtension} injects, on the parameter or on
 * the test class. Without it a cluster has 3 masters and no replicas.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.TYPE})
public @interface ClusterNodes {
    int masters() default 3;

    int replicasPerMaster() default 0;
}
