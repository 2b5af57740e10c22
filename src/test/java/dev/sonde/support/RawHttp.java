package dev.sonde.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 spoken by hand over a socket, for what the JDK client will not do: forge headers, come
 * from another loopback address, send a head and then nothing.
 */
public final class RawHttp implements AutoCloseable {
  private final Socket socket;

  /** Connects to 127.0.0.1:{@code port} from {@code from} (e.g. 127.0.0.2), or any when null. */
  public RawHttp(String from, int port) throws IOException {
    socket = new Socket();
    if (from != null) {
      socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
    }
    socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
    socket.setSoTimeout(30_000);
  }

  public RawHttp send(String text) throws IOException {
    return send(text.getBytes(StandardCharsets.UTF_8));
  }

  public RawHttp send(byte[] bytes) throws IOException {
    socket.getOutputStream().write(bytes);
    socket.getOutputStream().flush();
    return this;
  }

  /** A request with a body and {@code Connection: close}; the answer is read until the end. */
  public static String request(String from, int port, String head, String body) throws IOException {
    try (RawHttp raw = new RawHttp(from, port)) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      raw.send(
          head
              + "Host: 127.0.0.1:"
              + port
              + "\r\nContent-Length: "
              + bytes.length
              + "\r\nConnection: close\r\n\r\n");
      raw.send(bytes);
      return raw.readAll();
    }
  }

  /** One answer on a connection kept open: its head and a body of the Content-Length it gives. */
  public String readAnswer() throws IOException {
    InputStream in = socket.getInputStream();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed before the answer's head ended: " + head);
      }
      head.write(b);
    }
    String text = head.toString(StandardCharsets.ISO_8859_1);
    int length = 0;
    for (String line : text.split("\r\n")) {
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }

  /** What the server sends within {@code millis}, or until it closes the connection. */
  public String readFor(int millis) throws IOException {
    socket.setSoTimeout(millis);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      int n;
      while ((n = socket.getInputStream().read(buffer)) >= 0) {
        out.write(buffer, 0, n);
      }
    } catch (SocketTimeoutException e) {
      // nothing more for now
    } catch (IOException e) {
      // reset by the server after its answer
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Everything the server sends until it closes the connection. */
  public String readAll() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[8192];
    int n;
    while ((n = in.read(buffer)) >= 0) {
      out.write(buffer, 0, n);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /**
   * Waits up to {@code seconds} for the server to close the connection (what it sent before is
   * skipped); false when it is still open then.
   */
  public boolean closedByServerWithin(int seconds) throws IOException {
    socket.setSoTimeout(seconds * 1000);
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[8192];
    try {
      while (in.read(buffer) >= 0) {
        // skip an answer such as a 408
      }
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset by the server
    }
  }

  public Socket socket() {
    return socket;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
