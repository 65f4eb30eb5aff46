package dev.padlock.examples.inventory;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Serves the resources at the application's root, so the URLs match the Quarkus example's. */
@ApplicationPath("/")
public class InventoryApplication extends Application {}
