package dev.padlock.core.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A call's deadlines and owed leases, decided with the clock passed in: no Redis and no sleeping. The Redis tests
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

    private static LockLost loss() {
        return new LockLost(
                "padlock:stock", "Inventory#reserve()", Duration.ofSeconds(1), LockLost.Detection.RENEWAL, null);
    }
}
