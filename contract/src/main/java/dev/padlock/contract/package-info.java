/**
 * Padlock's promises, each written once and run on every runtime. A scenario ({@code *Contract}) is an abstract JUnit
 * test with the beans and configuration of the application it needs; a runner in the runtime's own tests extends it,
 * starts that application on a real Redis and hands the scenario its beans. Where a runtime refuses an application
 * (Weld with definition errors at start-up, Quarkus with one build error), what the refusal must say is shared
 * instead ({@link dev.padlock.contract.Refusal}), and each runner checks it its own way.
 *
 * <p>Quarkus runs a test in a class loader of its own that holds the test's class hierarchy (runner, scenario,
 * {@link dev.padlock.contract.Scenario}) and the application's beans; the other classes here come from the one below
 * it, which cannot see those. Hence: beans two scenarios share live in a common superclass
 * ({@link dev.padlock.contract.InterceptorOrderScenario}), helpers never refer to beans, and what a scenario uses of
 * another class is public (package-private access does not reach across class loaders).
 */
package dev.padlock.contract;
