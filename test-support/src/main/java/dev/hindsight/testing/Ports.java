package dev.hindsight.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Free TCP ports on the loopback interface, so parallel or repeated runs never collide. */
public final class Ports {

    private Ports() {
    }

    public static int free() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port", e);
        }
    }
}
