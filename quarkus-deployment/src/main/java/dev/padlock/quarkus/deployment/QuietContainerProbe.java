package dev.padlock.quarkus.deployment;

import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where Padlock's Dev Services found no hint of a container runtime and start a {@code redis-server} process, Quarkus
 * still asks Testcontainers whether Docker answers, to describe each Dev Service (its own {@code DevServicesProcessor});
 * Testcontainers' probe then logs "Could not find a valid Docker environment" at ERROR, although nothing is wrong and
 * Padlock's Redis starts a second later. This filter turns exactly that line into a DEBUG line of Padlock's, so a
 * normal dev-mode start shows no ERROR; every other line of Testcontainers passes unchanged. Installed once per JVM.
 */
final class QuietContainerProbe implements Filter {

    static final String PROBE_LOGGER = "org.testcontainers.dockerclient.DockerClientProviderStrategy";
    static final String NO_DOCKER = "Could not find a valid Docker environment";

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(QuietContainerProbe.class);

    private final Filter previous;

    private QuietContainerProbe(Filter previous) {
        this.previous = previous;
    }

    static synchronized void install() {
        Logger probe = Logger.getLogger(PROBE_LOGGER);
        if (!(probe.getFilter() instanceof QuietContainerProbe)) {
            probe.setFilter(new QuietContainerProbe(probe.getFilter()));
        }
    }

    @Override
    public boolean isLoggable(java.util.logging.LogRecord record) {
        String message = record.getMessage();
        if (record.getLevel().intValue() >= Level.SEVERE.intValue()
                && message != null
                && message.startsWith(NO_DOCKER)) {
            LOG.debugf(
                    "Testcontainers found no container runtime, as expected (no DOCKER_HOST, no socket): %s", message);
            return false;
        }
        return previous == null || previous.isLoggable(record);
    }
}
