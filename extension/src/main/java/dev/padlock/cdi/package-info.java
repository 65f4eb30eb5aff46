/**
 * Padlock's portable CDI extension: add the {@code padlock-extension} jar to an application on Payara,
 * WildFly, Open Liberty or Weld SE and {@code @Locked} works, with no {@code beans.xml} entry. The only public
 * type meant for applications is {@link dev.padlock.cdi.PadlockExtension}, which the container finds through
 * {@code META-INF/services} (Weld SE with {@code disableDiscovery()}: add it with {@code addExtension}).
 * {@link dev.padlock.cdi.MissingExtensionCheck} is public only for the service loader.
 */
package dev.padlock.cdi;
