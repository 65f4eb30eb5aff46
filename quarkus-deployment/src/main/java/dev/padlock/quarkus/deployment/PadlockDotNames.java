package dev.padlock.quarkus.deployment;

import dev.padlock.Locked;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import org.jboss.jandex.DotName;

/** The Jandex names Padlock's build steps look for, in one place. */
final class PadlockDotNames {

    static final DotName LOCKED = DotName.createSimple(Locked.class);
    static final DotName NAMED = DotName.createSimple(Named.class);
    static final DotName INJECT = DotName.createSimple(Inject.class);
    static final DotName PRIORITY = DotName.createSimple(Priority.class);

    private PadlockDotNames() {}
}
