/*
 * Apache Curator's InterProcessMutex (Debian libcurator-recipes-java 5.4.0) as a fencecheck client
 * (docs/client-protocol.md, protocol 1). Run by ./curator-mutex, which execs `java` in source-file
 * mode over Debian's jars: no build step.
 *
 * Used as Curator's documentation shows: CuratorFrameworkFactory.newClient(connectString,
 * sessionTimeoutMs, connectionTimeoutMs, retryPolicy), start(), new InterProcessMutex(client, path),
 * acquire(time, unit), release(). The lease is the ZooKeeper session.
 *
 * Token: none. InterProcessMutex's public API exposes no token; its lock node's path (whose
 * sequence number would be one) is behind the protected getLockPath(). A finding: a Curator user
 * has no fencing token without subclassing the recipe.
 */
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.ExponentialBackoffRetry;

public class CuratorMutexClient {
  static final ObjectMapper JSON = new ObjectMapper();

  /** It definitely did not happen (fail) or may have (info). */
  static final class OpError extends Exception {
    final boolean info;
    final String code;

    OpError(boolean info, String code, String msg) {
      super(code + ": " + msg);
      this.info = info;
      this.code = code;
    }
  }

  static OpError fail(String code, String msg) {
    return new OpError(false, code, msg);
  }

  static OpError info(String code, String msg) {
    return new OpError(true, code, msg);
  }

  static void log(String line) {
    System.err.println(java.time.LocalTime.now() + " " + line);
  }

  final JsonNode cfg;
  final int callMs;
  final CuratorFramework zk;
  InterProcessMutex mutex;
  boolean holding;
  Connection db;

  CuratorMutexClient(JsonNode cfg) {
    this.cfg = cfg;
    this.callMs = cfg.get("callTimeoutMs").asInt();
    StringBuilder hosts = new StringBuilder();
    for (JsonNode e : cfg.get("lockEndpoints")) hosts.append(hosts.length() > 0 ? "," : "").append(e.asText());
    int session = cfg.has("sessionTimeoutMs") ? cfg.get("sessionTimeoutMs").asInt() : 10000;
    zk = CuratorFrameworkFactory.newClient(hosts.toString(), session, callMs, new ExponentialBackoffRetry(50, 3));
    zk.start();
  }

  ObjectNode acquire(int ttlMs) throws OpError {
    if (holding) throw fail("already-held", "this client holds the lock");
    InterProcessMutex m = new InterProcessMutex(zk, cfg.get("lockName").asText());
    boolean got;
    try {
      got = m.acquire(callMs, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      // Its contender node may exist and may become the holder.
      throw info("zk-error", e.toString());
    }
    // false: Curator deleted its contender node before returning (the wait timed out): not ours.
    if (!got) throw fail("held", "acquire timed out");
    mutex = m;
    holding = true;
    ObjectNode a = JSON.createObjectNode().put("type", "ok");
    a.put("lease_ms", cfg.has("sessionTimeoutMs") ? cfg.get("sessionTimeoutMs").asInt() : 10000);
    return a;
  }

  ObjectNode release() throws OpError {
    InterProcessMutex m = mutex;
    boolean was = holding;
    mutex = null;
    holding = false;
    // Nothing is sent.
    if (!was) throw fail("not-held", "nothing held");
    try {
      m.release();
    } catch (IllegalMonitorStateException e) {
      throw fail("not-held", e.toString());
    } catch (Exception e) {
      // Deleting the lock node may have happened.
      throw info("zk-error", e.toString());
    }
    return JSON.createObjectNode().put("type", "ok");
  }

  Connection connection() throws OpError {
    try {
      if (db != null && !db.isClosed()) return db;
    } catch (SQLException e) {
      db = null;
    }
    JsonNode pg = cfg.get("pg");
    String url = "jdbc:postgresql://" + pg.get("host").asText() + ":" + pg.get("port").asInt() + "/" + pg.get("database").asText()
        + "?user=" + pg.get("user").asText() + "&connectTimeout=" + Math.max(1, callMs / 1000)
        + "&socketTimeout=" + Math.max(1, (callMs + 999) / 1000) + "&options=-c%20statement_timeout%3D" + Math.max(1, callMs * 8 / 10);
    try {
      db = DriverManager.getConnection(url);
      db.setAutoCommit(true);
      return db;
    } catch (SQLException e) {
      // Nothing was sent: the connection never opened.
      throw fail("pg-connect", e.toString());
    }
  }

  static Object dataValue(String s) {
    try {
      long n = Long.parseLong(s);
      if (Long.toString(n).equals(s) && Math.abs(n) <= (1L << 53) - 1) return n;
    } catch (NumberFormatException e) {
      // not an integer: text
    }
    return s;
  }

  ObjectNode run(JsonNode statements) throws OpError {
    if (statements == null || statements.size() == 0) throw fail("not-applicable", "no statement in this mode");
    // No token: a parameter that asks for one cannot be bound, and nothing is sent.
    for (JsonNode s : statements)
      for (JsonNode p : s.get("params"))
        if (p.isObject()) throw p.get("token").asText().equals("fence") ? fail("no-fencing-token", "no token") : fail("no-token", "no token");
    Map<String, String> last = null;
    for (JsonNode s : statements) {
      String sql = s.get("sql").asText().replaceAll("\\$\\d+", "?");
      java.util.List<String> order = new java.util.ArrayList<>();
      java.util.regex.Matcher mt = java.util.regex.Pattern.compile("\\$(\\d+)").matcher(s.get("sql").asText());
      while (mt.find()) order.add(mt.group(1));
      boolean readOnly = s.has("readOnly") && s.get("readOnly").asBoolean();
      try (PreparedStatement st = connection().prepareStatement(sql)) {
        for (int i = 0; i < order.size(); i++) {
          JsonNode p = s.get("params").get(Integer.parseInt(order.get(i)) - 1);
          if (p.isNull()) st.setNull(i + 1, java.sql.Types.VARCHAR);
          else st.setObject(i + 1, p.asText(), java.sql.Types.OTHER);
        }
        Map<String, String> row = null;
        try (ResultSet rs = st.executeQuery()) {
          if (rs.next()) {
            row = new HashMap<>();
            ResultSetMetaData md = rs.getMetaData();
            for (int c = 1; c <= md.getColumnCount(); c++) row.put(md.getColumnLabel(c), rs.getString(c));
          }
        }
        if (row == null) {
          ObjectNode a = JSON.createObjectNode().put("type", "fail").put("outcome", "rejected");
          return a.put("error", s.get("rejectIfNoRow").asText());
        }
        last = row;
      } catch (SQLException e) {
        String state = e.getSQLState();
        // The server cancelled (statement_timeout) or refused our autocommit statement: rolled back.
        if ("57014".equals(state)) throw fail("statement-timeout", e.toString());
        if (state != null && !state.startsWith("08")) throw fail("pg-" + state, e.toString());
        try { db.close(); } catch (Exception ignored) { /* dropping it */ }
        db = null;
        // The connection broke with the statement in flight: a read changed nothing, a write may have committed.
        if (readOnly) throw fail("connection-lost", e.toString());
        throw info("connection-lost", e.toString());
      }
    }
    ObjectNode a = JSON.createObjectNode().put("type", "ok").put("outcome", "accepted");
    if (last.containsKey("data")) a.putPOJO("value", dataValue(last.get("data") == null ? "" : last.get("data")));
    if (last.get("fence") != null) a.put("fence", Long.parseLong(last.get("fence")));
    return a;
  }

  ObjectNode handle(JsonNode r) {
    String op = r.path("op").asText();
    boolean access = op.equals("read") || op.equals("write") || op.equals("mark");
    try {
      switch (op) {
        case "acquire": return acquire(r.get("ttlMs").asInt());
        case "release": return release();
        case "read": case "write": case "mark":
          if (!holding) return JSON.createObjectNode().put("type", "fail").put("error", "no-hold").put("outcome", "unknown");
          return run(r.get("statements"));
        case "final-read": {
          ObjectNode a = run(r.get("statements"));
          a.remove("outcome");
          a.remove("fence");
          return a;
        }
        case "shutdown": return JSON.createObjectNode().put("type", "ok");
        default: return JSON.createObjectNode().put("type", "fail").put("error", "bad-request");
      }
    } catch (OpError e) {
      log(op + ": " + e.getMessage());
      ObjectNode a = JSON.createObjectNode().put("type", e.info ? "info" : "fail").put("error", e.code);
      if (access) a.put("outcome", "unknown");
      return a;
    } catch (RuntimeException e) {
      log(op + ": unexpected " + e);
      ObjectNode a = JSON.createObjectNode().put("type", "info").put("error", "client-error");
      if (access) a.put("outcome", "unknown");
      return a;
    }
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
    // stdout carries only protocol lines: anything a library prints goes to stderr.
    System.setOut(System.err);
    JsonNode cfg;
    try {
      cfg = JSON.readTree(System.getenv("FC_CLIENT_CONFIG"));
    } catch (Exception e) {
      System.err.println("Expected FC_CLIENT_CONFIG to hold the client configuration (JSON): " + e);
      System.exit(254);
      return;
    }
    CuratorMutexClient c = new CuratorMutexClient(cfg);
    c.zk.blockUntilConnected(15, TimeUnit.SECONDS);
    ObjectNode ready = JSON.createObjectNode().put("ready", true).put("protocol", 1).put("token", "none");
    ObjectNode versions = ready.putObject("versions");
    versions.put("java", System.getProperty("java.version"));
    versions.put("curator", versionOf(InterProcessMutex.class, "5.4.0"));
    versions.put("zookeeper", org.apache.zookeeper.Version.getFullVersion().replaceAll("[- ].*", ""));
    versions.put("pgjdbc", versionOf(org.postgresql.Driver.class, "42.5.5"));
    out.println(JSON.writeValueAsString(ready));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isBlank()) continue;
      // CLOCK_MONOTONIC on Linux (HotSpot's javaTimeNanos): the op cannot have taken effect before.
      long started = System.nanoTime();
      JsonNode r;
      try {
        r = JSON.readTree(line);
      } catch (Exception e) {
        out.println("{\"id\":-1,\"type\":\"fail\",\"error\":\"bad-request\"}");
        continue;
      }
      if (!r.path("id").isInt()) {
        out.println("{\"id\":-1,\"type\":\"fail\",\"error\":\"bad-request\"}");
        continue;
      }
      ObjectNode a = c.handle(r);
      a.put("id", r.get("id").asInt()).put("started_ns", Long.toString(started));
      out.println(JSON.writeValueAsString(a));
      if (r.path("op").asText().equals("shutdown")) break;
    }
    c.zk.close();
    System.exit(0);
  }

  static String versionOf(Class<?> k, String fallback) {
    String v = k.getPackage() == null ? null : k.getPackage().getImplementationVersion();
    return v != null ? v : fallback;
  }
}
