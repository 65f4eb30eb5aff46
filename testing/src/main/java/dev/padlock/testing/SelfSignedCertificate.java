package dev.padlock.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway self-signed certificate for a TLS redis-server on loopback: the PEM certificate and key redis-server
 * reads, and a PKCS12 trust store holding the certificate for clients. Made with the running JDK's {@code keytool},
 * so no openssl is needed; the key never leaves the server's temporary directory.
 */
final class SelfSignedCertificate {

    static final String STORE_PASSWORD = "padlock-test";

    private static final String ALIAS = "redis";
    private static final String FOLDER = "tls";

    private final Path certificate;
    private final Path key;
    private final Path trustStore;

    private SelfSignedCertificate(Path folder) {
        this.certificate = folder.resolve("redis.crt");
        this.key = folder.resolve("redis.key");
        this.trustStore = folder.resolve("truststore.p12");
    }

    /** The certificate in {@code dir}, made on first use; a restart on the same directory finds it again. */
    static SelfSignedCertificate in(Path dir) throws IOException {
        SelfSignedCertificate files = new SelfSignedCertificate(dir.resolve(FOLDER));
        if (!Files.exists(files.trustStore)) {
            files.make();
        }
        return files;
    }

    /** Where {@link #in} put the trust store for a server living in {@code dir}. */
    static Path trustStoreIn(Path dir) {
        return new SelfSignedCertificate(dir.resolve(FOLDER)).trustStore;
    }

    Path certificate() {
        return certificate;
    }

    Path key() {
        return key;
    }

    private void make() throws IOException {
        Path folder = Files.createDirectories(certificate.getParent());
        Path keyStore = folder.resolve("server.p12");
        keytool(
                "-genkeypair",
                "-alias",
                ALIAS,
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "7",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1",
                "-storetype",
                "PKCS12",
                "-keystore",
                keyStore.toString(),
                "-storepass",
                STORE_PASSWORD,
                "-keypass",
                STORE_PASSWORD);
        try {
            KeyStore server = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keyStore)) {
                server.load(in, STORE_PASSWORD.toCharArray());
            }
            Key privateKey = server.getKey(ALIAS, STORE_PASSWORD.toCharArray());
            Certificate cert = server.getCertificate(ALIAS);
            // PKCS#8, which OpenSSL (and so redis-server) reads as "PRIVATE KEY".
            Files.writeString(key, pem("PRIVATE KEY", privateKey.getEncoded()), StandardCharsets.US_ASCII);
            Files.writeString(certificate, pem("CERTIFICATE", cert.getEncoded()), StandardCharsets.US_ASCII);
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry(ALIAS, cert);
            try (OutputStream out = Files.newOutputStream(trustStore)) {
                trust.store(out, STORE_PASSWORD.toCharArray());
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("Cannot read the key pair keytool made in " + keyStore + ": " + e, e);
        }
    }

    private static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    private static void keytool(String... args) throws IOException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = new ArrayList<>(List.of(keytool.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(keytool + " did not finish within 60 s");
            }
            if (process.exitValue() != 0) {
                throw new IOException(keytool + " failed with status " + process.exitValue() + ": " + output);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while " + keytool + " made a certificate", e);
        }
    }
}
