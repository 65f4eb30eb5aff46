package dev.padlock.core.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyTemplateTest {

    @Test
    void splitsLiteralsAndPlaceholders() {
        KeyTemplate t = KeyTemplate.parse("eu-{order.customer.id}/{0}");
        assertThat(t.parts())
                .containsExactly(
                        new KeyTemplate.Literal("eu-"),
                        new KeyTemplate.Placeholder("order", List.of("customer", "id")),
                        new KeyTemplate.Literal("/"),
                        new KeyTemplate.Placeholder("0", List.of()));
        assertThat(t.placeholders().get(1).isPositional()).isTrue();
    }

    @Test
    void aTemplateWithoutPlaceholdersIsOneLiteral() {
        assertThat(KeyTemplate.parse("all").parts()).containsExactly(new KeyTemplate.Literal("all"));
    }

    @Test
    void rejectsMalformedTemplatesSayingWhere() {
        assertThatThrownBy(() -> KeyTemplate.parse("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> KeyTemplate.parse("{sku")).hasMessageContaining("'{' without its '}'");
        assertThatThrownBy(() -> KeyTemplate.parse("sku}")).hasMessageContaining("'}' without its '{'");
        assertThatThrownBy(() -> KeyTemplate.parse("{a{b}}")).hasMessageContaining("'{' without its '}'");
        assertThatThrownBy(() -> KeyTemplate.parse("{}")).hasMessageContaining("empty name");
        assertThatThrownBy(() -> KeyTemplate.parse("{order..id}")).hasMessageContaining("empty name");
        assertThatThrownBy(() -> KeyTemplate.parse("{1a}")).hasMessageContaining("position must be a number");
        assertThatThrownBy(() -> KeyTemplate.parse("{a.1}")).hasMessageContaining("not a property name");
    }
}
