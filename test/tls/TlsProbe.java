import java.net.URL;
import javax.net.ssl.HttpsURLConnection;

/**
 * The Java side of test/tls/tls-clients.ts: for each URL argument, a GET with
 * the JDK's default TLS settings (the trust store of
 * -Djavax.net.ssl.trustStore, the host name checked), as the Java SDK's
 * OkHttp client does. Prints one line per URL: "URL STATUS", or
 * "URL refused" and the chain of exceptions.
 */
public class TlsProbe {
  public static void main(String[] args) {
    for (String arg : args) {
      try {
        HttpsURLConnection connection = (HttpsURLConnection) new URL(arg).openConnection();
        connection.setConnectTimeout(10_000);
        connection.setReadTimeout(10_000);
        System.out.println(arg + " " + connection.getResponseCode());
        connection.disconnect();
      } catch (Exception e) {
        StringBuilder why = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) why.append(" | ").append(t.getClass().getName()).append(": ").append(t.getMessage());
        System.out.println(arg + " refused" + why);
      }
    }
  }
}
