package dev.hindsight.platform.kafka;

import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.util.Native;
import org.jboss.logging.Logger;

/**
 * Lets Kafka's LZ4 compression use lz4-java's native (JNI) codec, as a plain Kafka client does.
 *
 * <p>Kafka asks {@link LZ4Factory#fastestInstance()} for a codec per record batch. lz4-java answers with its native
 * codec only when its native library is already loaded or when lz4-java itself was loaded by the system class loader;
 * under Quarkus's class loader neither holds, so every batch would be compressed by the pure-Java "safe" codec, a cost
 * paid on every batch ingest sends (docs/benchmarks.md), while Kafka's own tools on the same machine use JNI. Loading
 * the library once at start-up, before the channels start, makes {@code fastestInstance()} answer the native codec. The
 * bytes on the wire are LZ4 frames either way; where no native build exists for the platform, Kafka keeps the Java
 * codec and this says so once.
 */
@Singleton
class NativeLz4 {

    private static final Logger LOG = Logger.getLogger(NativeLz4.class);

    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event) {
        if (!load()) {
            LOG.info("lz4-java's native library is not available here; Kafka compresses with its Java codec");
        }
    }

    /** Loads lz4-java's native library if it is not loaded yet; true when Kafka's LZ4 codec is now the native one. */
    private static boolean load() {
        try {
            Native.load();
        } catch (Throwable unavailable) { // UnsatisfiedLinkError and the like: no build for this OS or architecture
            LOG.debugf(unavailable, "lz4-java's native library did not load");
        }
        return Native.isLoaded() && LZ4Factory.fastestInstance() == LZ4Factory.nativeInstance();
    }
}
