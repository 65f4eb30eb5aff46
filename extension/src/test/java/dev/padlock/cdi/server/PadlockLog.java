package dev.padlock.cdi.server;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Every line Padlock logs (java.util.logging, INFO and above) while open: what the server check said, and the rest. */
final class PadlockLog implements AutoCloseable {

    /** The logger of the server check's findings. */
    static final String SERVER_CHECK = "dev.padlock.core.server.ServerFindings";

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger("dev.padlock");
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    PadlockLog() {
        logger.addHandler(handler);
    }

    /** What the server check said at {@code level} (exactly). */
    List<String> serverCheck(Level level) {
        return records.stream()
                .filter(r ->
                        r.getLoggerName().equals(SERVER_CHECK) && r.getLevel().equals(level))
                .map(LogRecord::getMessage)
                .toList();
    }

    /** What the server check said at any level. */
    List<String> serverCheck() {
        return records.stream()
                .filter(r -> r.getLoggerName().equals(SERVER_CHECK))
                .map(LogRecord::getMessage)
                .toList();
    }

    /** Every line, at WARN and above, of any of Padlock's loggers. */
    List<String> warnings() {
        return records.stream()
                .filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                .map(r -> r.getLoggerName() + ": " + r.getMessage())
                .toList();
    }

    /** Every line of Padlock's, with its logger, for searching the whole log. */
    String all() {
        StringBuilder all = new StringBuilder();
        records.forEach(r -> all.append(r.getLoggerName())
                .append(' ')
                .append(r.getLevel())
                .append(": ")
                .append(r.getMessage())
                .append('\n'));
        return all.toString();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
