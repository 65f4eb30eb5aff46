package dev.padlock.core.events;

import dev.padlock.core.engine.PadlockEngine;

/** A class in a low room that uses the front door above it, on purpose: for the rules' own test only. */
public class ReachesUpToTheEngine {
    PadlockEngine engine;
}
