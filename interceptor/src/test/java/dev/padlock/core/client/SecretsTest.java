package dev.padlock.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.Problems;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.redisson.client.RedisConnectionException;

/**
 * The one rule for keeping passwords out of messages, as the connection settings, {@link ConnectionFailure} and the
 * test kit apply it: user info masked up to the last {@code @}, and every password, and every piece of an address's
 * password a parser may quote alone, struck out.
 */
class SecretsTest {

    @Test
    void anAddressIsMaskedUpToItsLastAtSign() {
        assertThat(Secrets.maskedAddress("redis://app:Pa55@w/rd@127.0.0.1:6379"))
                .isEqualTo("redis://***@127.0.0.1:6379");
        assertThat(Secrets.maskedAddress("app:s3cret@h:1")).isEqualTo("***@h:1");
        assertThat(Secrets.maskedAddress("rediss://h:1")).isEqualTo("rediss://h:1");
    }

    @Test
    void theConfiguredPasswordAndEachAddressPasswordAreStruckOut() {
        Secrets secrets = Secrets.of("c0nfigured", List.of("redis://app:addr3ss@h:1", "redis://h:2"));

        assertThat(secrets.strikeOut("AUTH c0nfigured failed, then AUTH app addr3ss"))
                .isEqualTo("AUTH *** failed, then AUTH app ***");
    }

    @Test
    void eachPieceOfAnAddressPasswordIsStruckOutTooAsAParserMayQuoteItAlone() {
        Secrets secrets = Secrets.ofAddress("redis://app:Ab3/Secret+Tail@h:1");

        assertThat(secrets.strikeOut("no host in redis://app:Ab3, path /Secret+Tail@h:1"))
                .doesNotContain("Ab3")
                .doesNotContain("Secret+Tail");
    }

    @Test
    void userInfoOfAnyAddressInATextIsMasked() {
        assertThat(Secrets.NONE.strikeOut("Unable to connect to redis://u:unkn0wn@h:1 and rediss://x@h:2"))
                .isEqualTo("Unable to connect to redis://***@h:1 and rediss://***@h:2");
    }

    @Test
    void aConnectionFailureQuotesNoPieceOfAnAddressPassword() {
        Problems problems = new Problems();
        RedisConnectionSettings settings = RedisConnectionReader.read(
                ConfigView.of(Map.of("padlock.redis.address", "redis://app:Pa55@w0rd@127.0.0.1:6379")), problems);
        assertThat(problems.list()).isEmpty();

        ConnectionFailure failure = ConnectionFailure.of(
                new RedisConnectionException("Unable to connect to Redis server: w0rd@127.0.0.1:6379 as app:Pa55"),
                settings);

        assertThat(failure.message(settings.describe())).doesNotContain("Pa55", "w0rd");
    }
}
