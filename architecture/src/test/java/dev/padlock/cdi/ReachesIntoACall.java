package dev.padlock.cdi;

import dev.padlock.core.call.LockedCall;

/** An integration class that reaches into a call's room, on purpose: for the rules' own test only. */
public class ReachesIntoACall {
    LockedCall call;
}
