package dev.padlock.benchmarks;

import dev.padlock.LockType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What to run, from the command line. The defaults are the full suite (about 20 minutes on 2 cores);
 * {@code --quick} is a smoke run of a few minutes whose figures are noisier.
 */
record Options(
        List<LockType> types,
        List<Row.Lease> leases,
        List<Row.Contention> contentions,
        List<Integer> threads,
        int passes,
        Duration pass,
        Duration warmup,
        boolean rendering,
        boolean storm,
        int stormBurst,
        Duration stormWatchdog,
        double maxForeignCores,
        boolean rawAgainstRaw,
        boolean metrics,
        List<Integer> jvms,
        Body body,
        Map<String, String> padlockConfig,
        Topology.Kind topology,
        boolean quick) {

    static final String USAGE = String.join(
            "\n",
            "usage: benchmarks/run [--quick] [options]",
            "  --quick                 threads 1,8; 4 passes of 1s; short JMH run (a few minutes in all)",
            "  --types reentrant,fair,read",
            "  --leases watchdog,fixed",
            "  --keys own,one          (none: no single-JVM lock rows, e.g. with --jvms)",
            "  --threads 1,8,32",
            "  --passes 8              measured passes per side, alternating Padlock and raw",
            "  --seconds 1.5           length of one pass",
            "  --warmup 2              seconds of warm-up per side before the passes",
            "  --no-rendering          skip the JMH key-template benchmark",
            "  --no-storm              skip the renewal-storm comparison",
            "  --storm-burst 16700     short calls before one lock is held (quick: 2000)",
            "  --storm-watchdog 30     watchdog timeout in seconds for it (quick: 3); renewals are counted over 3 periods",
            "  --max-foreign 0.15      re-run a pair of passes when other processes used more than this many cores",
            "  --raw-against-raw       the control: raw Redisson in both columns (the ratio must come out ~1)",
            "  --metrics               Padlock's Micrometer meters on (a SimpleMeterRegistry bean), as in production",
            "  --jvms 4                also that many child JVMs on one key at once (2 or more; a list, e.g. 2,4, for one",
            "                          section per count), per type, lease and threads (per JVM): aggregate throughput,",
            "                          the smallest JVM's share of the acquisitions",
            "  --two-jvms              the same as --jvms 2 (issue #17)",
            "  --body 1ms              what every measured call does inside the lock, both sides, every row: parks for",
            "                          this long (ns, us, ms, s; default none: an empty body, the lock alone)",
            "  --padlock-config k=v    a Padlock property for the lock rows' applications, repeatable; e.g.",
            "                          padlock.hand-off-limit=0 shows the one-key rows without local hand-off",
            "  --topology single       where the locks live: single (one redis-server), replicated (a master and one",
            "                          replica; both clients in Redisson's replicated mode) or sentinel (the same and",
            "                          three sentinels); with a replica every acquisition is followed by WAIT for it",
            "  --replica               the same as --topology replicated (issue #25)",
            "  --help");

    static Options parse(String... args) {
        boolean quick = List.of(args).contains("--quick");
        List<LockType> types = List.of(LockType.REENTRANT, LockType.FAIR, LockType.READ);
        List<Row.Lease> leases = List.of(Row.Lease.values());
        List<Row.Contention> contentions = List.of(Row.Contention.values());
        List<Integer> threads = quick ? List.of(1, 8) : List.of(1, 8, 32);
        int passes = quick ? 4 : 8;
        Duration pass = Duration.ofMillis(quick ? 1000 : 1500);
        Duration warmup = Duration.ofSeconds(quick ? 1 : 2);
        boolean rendering = true;
        boolean storm = true;
        int stormBurst = quick ? 2_000 : 16_700;
        Duration stormWatchdog = Duration.ofSeconds(quick ? 3 : 30);
        double maxForeignCores = 0.15;
        boolean rawAgainstRaw = false;
        boolean metrics = false;
        List<Integer> jvms = List.of();
        Body body = Body.EMPTY;
        Map<String, String> padlockConfig = new TreeMap<>();
        Topology.Kind topology = Topology.Kind.SINGLE;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--quick":
                    break;
                case "--no-rendering":
                    rendering = false;
                    break;
                case "--no-storm":
                    storm = false;
                    break;
                case "--storm-burst":
                    stormBurst = Integer.parseInt(value(args, ++i, arg));
                    break;
                case "--raw-against-raw":
                    rawAgainstRaw = true;
                    break;
                case "--metrics":
                    metrics = true;
                    break;
                case "--two-jvms":
                    jvms = List.of(2);
                    break;
                case "--jvms":
                    jvms = new ArrayList<>();
                    for (String j : value(args, ++i, arg).split(",")) {
                        int count = Integer.parseInt(j.trim());
                        if (count < 2) {
                            throw new IllegalArgumentException(
                                    "--jvms takes 2 or more child JVMs (one JVM on one key is the one-key row), got "
                                            + j + "\n" + USAGE);
                        }
                        jvms.add(count);
                    }
                    break;
                case "--body":
                    String length = value(args, ++i, arg);
                    try {
                        body = Body.parse(length);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(e.getMessage() + "\n" + USAGE, e);
                    }
                    break;
                case "--padlock-config":
                    String property = value(args, ++i, arg);
                    int eq = property.indexOf('=');
                    if (!property.startsWith("padlock.") || eq < 0) {
                        throw new IllegalArgumentException(
                                "--padlock-config takes padlock.<key>=<value>, got " + property + "\n" + USAGE);
                    }
                    padlockConfig.put(property.substring(0, eq), property.substring(eq + 1));
                    break;
                case "--topology":
                    try {
                        topology = Topology.Kind.parse(value(args, ++i, arg));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(e.getMessage() + "\n" + USAGE, e);
                    }
                    break;
                case "--replica":
                    topology = Topology.Kind.REPLICATED;
                    break;
                case "--max-foreign":
                    maxForeignCores = Double.parseDouble(value(args, ++i, arg));
                    break;
                case "--storm-watchdog":
                    stormWatchdog = Duration.ofMillis(Math.round(Double.parseDouble(value(args, ++i, arg)) * 1000));
                    break;
                case "--types":
                    types = new ArrayList<>();
                    for (String t : value(args, ++i, arg).split(",")) {
                        types.add(LockType.valueOf(t.trim().toUpperCase(Locale.ROOT)));
                    }
                    break;
                case "--leases":
                    leases = new ArrayList<>();
                    for (String l : value(args, ++i, arg).split(",")) {
                        leases.add(Row.Lease.valueOf(l.trim().toUpperCase(Locale.ROOT)));
                    }
                    break;
                case "--keys":
                    contentions = new ArrayList<>();
                    for (String k : value(args, ++i, arg).split(",")) {
                        String keys = k.trim().toLowerCase(Locale.ROOT);
                        if (keys.equals("own")) {
                            contentions.add(Row.Contention.OWN_KEYS);
                        } else if (keys.equals("one")) {
                            contentions.add(Row.Contention.ONE_KEY);
                        } else if (!keys.equals("none")) {
                            throw new IllegalArgumentException(
                                    "--keys takes own, one or none, got " + k + "\n" + USAGE);
                        }
                    }
                    break;
                case "--threads":
                    threads = new ArrayList<>();
                    for (String t : value(args, ++i, arg).split(",")) {
                        threads.add(Integer.parseInt(t.trim()));
                    }
                    break;
                case "--passes":
                    passes = Integer.parseInt(value(args, ++i, arg));
                    break;
                case "--seconds":
                    pass = Duration.ofMillis(Math.round(Double.parseDouble(value(args, ++i, arg)) * 1000));
                    break;
                case "--warmup":
                    warmup = Duration.ofMillis(Math.round(Double.parseDouble(value(args, ++i, arg)) * 1000));
                    break;
                default:
                    throw new IllegalArgumentException("unknown option " + arg + "\n" + USAGE);
            }
        }
        for (LockType type : types) {
            if (type != LockType.REENTRANT && type != LockType.FAIR && type != LockType.READ) {
                throw new IllegalArgumentException("--types takes reentrant, fair or read\n" + USAGE);
            }
        }
        return new Options(
                types,
                leases,
                contentions,
                threads,
                passes,
                pass,
                warmup,
                rendering,
                storm,
                stormBurst,
                stormWatchdog,
                maxForeignCores,
                rawAgainstRaw,
                metrics,
                List.copyOf(jvms),
                body,
                Map.copyOf(padlockConfig),
                topology,
                quick);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return args[i];
    }

    /** Rows in table order: by lock type, then lease, then keys, then threads. */
    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (LockType type : types) {
            for (Row.Lease lease : leases) {
                for (Row.Contention contention : contentions) {
                    for (int t : threads) {
                        rows.add(new Row(type, lease, contention, t));
                    }
                }
            }
        }
        return rows;
    }

    String describe() {
        return String.format(
                "%d passes of %.1f s per side per row (alternating Padlock and raw; medians), %.1f s warm-up per"
                        + " side; threads %s; body inside the lock %s; Padlock's Micrometer meters %s%s%s",
                passes,
                pass.toMillis() / 1000.0,
                warmup.toMillis() / 1000.0,
                threads,
                body.empty() ? "empty" : body.length() + " (parked)",
                metrics ? "on (a SimpleMeterRegistry bean)" : "off (no MeterRegistry)",
                padlockConfig.isEmpty() ? "" : "; Padlock configured with " + new TreeMap<>(padlockConfig),
                topology == Topology.Kind.SINGLE ? "" : "; Redis topology " + topology.label);
    }
}
