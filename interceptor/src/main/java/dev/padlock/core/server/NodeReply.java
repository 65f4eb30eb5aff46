package dev.padlock.core.server;

import dev.padlock.core.client.Secrets;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.redisson.client.RedisTimeoutException;

/**
 * Why a node gave the check no data: how the server refused a command, or that it did not answer. Quotes the server's
 * own reply without what Redisson appends to it (the channel, the command and its parameters), which is both noise and
 * the place an argument could show.
 *
 * @param kind what kind of refusal it is, which decides the advice
 * @param text the server's reply ({@code NOPERM this user has no permissions to run the 'config|get' command}), or
 *     what happened instead of one
 */
record NodeReply(Kind kind, String text) {

    enum Kind {
        /** An ACL user without the command: it can be granted. */
        NO_PERMISSION,
        /** The server does not offer the command (a managed service that disables or renames it). */
        UNKNOWN_COMMAND,
        /** No answer within the check's time, or no connection to ask on. */
        NO_ANSWER,
        /** Any other error reply. */
        OTHER
    }

    /** @param timeout how long the check waits for an answer, to say so when none came */
    static NodeReply of(Throwable failure, Duration timeout) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof TimeoutException || t instanceof RedisTimeoutException) {
            return new NodeReply(Kind.NO_ANSWER, "no answer within " + timeout.toSeconds() + " s");
        }
        String message = t.getMessage();
        if (message == null) {
            return new NodeReply(Kind.OTHER, t.getClass().getSimpleName());
        }
        int appended = message.indexOf(". channel: ");
        String reply = Secrets.NONE.strikeOut(appended < 0 ? message : message.substring(0, appended));
        if (reply.startsWith("NOPERM")) {
            return new NodeReply(Kind.NO_PERMISSION, reply);
        }
        if (reply.startsWith("ERR unknown command")) {
            return new NodeReply(Kind.UNKNOWN_COMMAND, reply);
        }
        return new NodeReply(Kind.OTHER, reply);
    }
}
