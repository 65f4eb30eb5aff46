package dev.padlock;

import dev.padlock.core.engine.PadlockEngine;

/** An API class that names the engine, on purpose: for the rules' own test only. */
public class ReachesIntoTheEngineFromTheApi {
    PadlockEngine engine;
}
