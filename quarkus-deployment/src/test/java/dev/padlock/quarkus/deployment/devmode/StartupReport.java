package dev.padlock.quarkus.deployment.devmode;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/** Logs, at each (re)start, the Redis a lock was just held on and a version the dev-mode test edits. */
@ApplicationScoped
public class StartupReport {

    @Inject
    LockedJob job;

    void report(@Observes StartupEvent event) {
        Logger.getLogger(StartupReport.class).infof("padlock-dev-mode %s version-1", job.addressWhileHeld());
    }
}
