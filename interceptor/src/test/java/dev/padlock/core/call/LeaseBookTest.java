package dev.padlock.core.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A call's deadlines, losses and owed leases ({@link LeaseDeadlines}, which the book extends), decided with the clock
 * passed in: no Redis and no sleeping. The Redis tests
 * (CutOffHolderTest, LeaseLossTest, LocalTurnLeaseTest) show that these deadlines come before anyone else can be granted
 * the key.
 */
class LeaseBookTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Two locks, as a multi-key call has. */
    private static final class Book extends LeaseBook {
        Book() {
            super(2);
        }
    }

    @Test
    void aConfirmationGivesTheLeaseFromItsSendTimeLessTheDriftMargin() {
        Book book = new Book();
        long sent = 1_000 * MS;
        book.confirmed(0, sent, 30_000);
        assertThat(book.ownDeadline(0)).isEqualTo(sent + 30_000 * MS - 320 * MS);
        assertThat(book.ownDeadline(1)).as("not taken").isZero();
        assertThat(book.earliestDeadline()).isEqualTo(book.ownDeadline(0));
    }

    @Test
    void aLateAnswerNeverMovesTheDeadlineBack() {
        Book book = new Book();
        book.confirmed(0, 2_000 * MS, 30_000);
        long later = book.ownDeadline(0);
        book.confirmed(0, 1_000 * MS, 30_000); // an earlier renewal answered last
        assertThat(book.ownDeadline(0)).isEqualTo(later);
    }

    @Test
    void aLockIsOverdueFromItsDeadlineOnUntilItIsReportedLost() {
        Book book = new Book();
        book.confirmed(0, 0, 1_000);
        book.confirmed(1, 500 * MS, 1_000);
        long first = book.ownDeadline(0);
        assertThat(book.overdue(first - 1)).isNull();
        assertThat(book.overdue(first)).containsExactly(0);
        assertThat(book.overdue(book.ownDeadline(1))).containsExactly(0, 1);
        book.markLost(0, loss());
        assertThat(book.overdue(book.ownDeadline(1))).containsExactly(1);
        assertThat(book.earliestDeadline()).isEqualTo(book.ownDeadline(1));
    }

    @Test
    void anOwedLeaseIsExtendedOnlyOnceTwoThirdsOrLessAreLeftBeforeTheInheritedDeadline() {
        Book book = new Book();
        long now = 10_000 * MS;
        long lease = 3_000 * MS;
        book.inherited(0, now + 500 * MS); // handed on with half a second left
        book.owe(0, now, lease);
        assertThat(book.extensionDueAt(0)).isEqualTo(now + 500 * MS - 2_000 * MS);
        assertThat(book.owedMillis(0, now + 100 * MS)).isEqualTo(2_900);
        book.confirmed(0, now + 100 * MS, book.owedMillis(0, now + 100 * MS));
        assertThat(book.extensionDueAt(0)).as("extended as far as it is owed").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theDriftMarginIsOnePercentOfTheLeasePlusTwentyMilliseconds() {
        assertThat(LeaseBook.driftMarginNanos(30_000 * MS)).isEqualTo(320 * MS);
        assertThat(LeaseBook.driftMarginNanos(1_000 * MS)).isEqualTo(30 * MS);
    }

    @Test
    void eachLossIsRecordedOnceAndTheCallsFirstLossIsKept() {
        Book book = new Book();
        LockLost first = loss();
        LockLost second = loss();
        assertThat(book.markLost(1, first)).isTrue();
        assertThat(book.markLost(1, second)).as("found again by another path").isFalse();
        assertThat(book.markLost(0, second)).isTrue();
        assertThat(book.lossOf(1)).isSameAs(first);
        assertThat(book.firstLoss()).isSameAs(first);
        assertThat(book.isLost(0)).isTrue();
    }

    @Test
    void aLostLockIsNotRevivedByALateConfirmationNorWatchedAnyMore() {
        Book book = new Book();
        book.confirmed(0, 0, 1_000);
        book.confirmed(1, 0, 30_000);
        long deadline = book.ownDeadline(0);
        book.markLost(0, loss());
        book.confirmed(0, 500 * MS, 1_000); // a renewal sent before the loss, answered after it
        assertThat(book.ownDeadline(0)).isEqualTo(deadline);
        assertThat(book.earliestDeadline()).as("only the lock still held").isEqualTo(book.ownDeadline(1));
    }

    @Test
    void aServerClockStepShortensTheDeadlineByTheStepUntilTheNextConfirmation() {
        Book book = new Book();
        book.confirmed(0, 0, 30_000);
        long deadline = book.ownDeadline(0);
        assertThat(book.shortenDeadline(0, 12_000 * MS)).isEqualTo(deadline - 12_000 * MS);
        assertThat(book.overdue(deadline - 12_000 * MS)).containsExactly(0);
        book.confirmed(0, 1_000 * MS, 30_000); // renewed after the step: the server counts the new lease
        assertThat(book.ownDeadline(0)).isEqualTo(1_000 * MS + deadline);
        assertThat(book.shortenDeadline(1, 12_000 * MS))
                .as("not taken: nothing to shorten")
                .isZero();
        book.markLost(0, loss());
        assertThat(book.shortenDeadline(0, 1_000 * MS)).as("lost: left alone").isZero();
    }

    @Test
    void onlyALeaseOwedToALockStillHeldIsExtended() {
        Book book = new Book();
        long now = 10_000 * MS;
        long lease = 3_000 * MS;
        assertThat(book.earliestExtensionDue()).as("nothing owed").isEqualTo(Long.MAX_VALUE);
        assertThat(book.owedLeaseMillis()).isZero();
        book.inherited(0, now + 500 * MS);
        book.inherited(1, now + 200 * MS);
        book.owe(0, now, lease);
        assertThat(book.extensionDueAt(1)).as("lock 1 is owed nothing").isEqualTo(Long.MAX_VALUE);
        assertThat(book.earliestExtensionDue()).isEqualTo(book.extensionDueAt(0));
        book.owe(1, now, lease);
        assertThat(book.earliestExtensionDue()).isEqualTo(now + 200 * MS - 2_000 * MS);
        assertThat(book.owedLeaseMillis()).isEqualTo(3_000);
        book.markLost(1, loss());
        assertThat(book.earliestExtensionDue())
                .as("a lost lock is not extended")
                .isEqualTo(book.extensionDueAt(0));
    }

    private static LockLost loss() {
        return new LockLost(
                "padlock:stock", "Inventory#reserve()", Duration.ofSeconds(1), LockLost.Detection.RENEWAL, null);
    }
}
