package dev.padlock.core.programmatic;

import dev.padlock.core.operation.LockOperation;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.LockedMethodValidator;
import dev.padlock.core.plan.NamedLocks;
import java.util.List;

/**
 * What {@link ProgrammaticLocks} needs of the engine it runs in, and all it may ask of it: the engine's rules, what it
 * planned so far (so a name used in code meets the same type rule as the annotated methods), and an operation for a
 * new plan.
 */
public interface Planner {

    LockedMethodValidator validator();

    /** The plans of every method registered or planned so far, in a list of the caller's own. */
    List<LockPlan> plans();

    List<NamedLocks.NamedLock> namedLocks();

    /** An operation of the engine for a plan not tied to a method. */
    LockOperation operation(LockPlan plan, Class<?>[] parameterTypes);
}
