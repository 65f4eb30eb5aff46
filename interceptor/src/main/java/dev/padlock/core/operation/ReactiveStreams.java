package dev.padlock.core.operation;

import io.smallrye.mutiny.Multi;
import mutiny.zero.flow.adapters.AdaptersToFlow;
import mutiny.zero.flow.adapters.AdaptersToReactiveStreams;

/**
 * {@code org.reactivestreams.Publisher} to and from {@code Multi}. Apart so that only applications returning that
 * type need its adapters (and a native image of any other finds no reference to them).
 */
final class ReactiveStreams {

    private ReactiveStreams() {}

    @SuppressWarnings("unchecked")
    static Multi<Object> multi(Object publisher) {
        return Multi.createFrom()
                .publisher(AdaptersToFlow.publisher((org.reactivestreams.Publisher<Object>) publisher));
    }

    static org.reactivestreams.Publisher<Object> publisher(Multi<Object> multi) {
        return AdaptersToReactiveStreams.publisher(multi);
    }
}
