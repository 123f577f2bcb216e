// Starts DynamoDB Local as DynamoDBLocal.jar's own main does, but listening on 127.0.0.1 only.
// DynamoDB Local has no option for its address: its Jetty server binds every interface, so this
// sets the address on that server's connector before it starts. The field is private, hence the
// reflection; the jar is pinned (lib/local/ddblocal-jar.ts), so its layout does not move. Compiled
// once per jar by lib/local/ddblocal-loopback.ts; takes DynamoDB Local's own flags.
//
// It also keeps an idle connection open for 10 minutes, as the tests' dynalite does (Jetty closes
// one after 30 s): a client paused that long (a loader stopped past its lease, a busy test
// worker) would otherwise wake to find every pooled socket closed, and meet ECONNRESET on its
// retry too. The client closes first.
import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

public class LoopbackDynamoDbLocal {
  private static final long IDLE_TIMEOUT_MS = 600_000L;

  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) {
      ((ServerConnector) connector).setHost("127.0.0.1");
      ((ServerConnector) connector).setIdleTimeout(IDLE_TIMEOUT_MS);
    }
    proxy.start();
  }
}
