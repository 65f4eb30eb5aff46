package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.contract.MutualExclusionContract;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link MutualExclusionContract} on Quarkus. Padlock locks through its own client here, and so says nothing about an
 * application's own {@code RedissonClient} (the control of {@link ApplicationClientOnQuarkusTest}).
 */
class MutualExclusionOnQuarkusTest extends MutualExclusionContract {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.of(APPLICATION)
            .setLogRecordPredicate(r -> r.getLoggerName().startsWith("dev.padlock"))
            .assertLogRecords(records -> assertThat(records)
                    .noneMatch(r -> String.valueOf(r.getMessage()).contains("own RedissonClient")));
}
