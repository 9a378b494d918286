package dev.drover.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.drover.store.StoreOptions;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.postgresql.PGConnection;

/**
 * A PostgreSQL pool for Drover that measures what the server spends for one thread of the runner:
 * while a thread of that name holds a connection, the CPU time of the connection's backend process
 * and its time waiting for a core are counted (Linux's {@code /proc/<pid>/schedstat}, nanoseconds;
 * the bench's PostgreSQL runs on this machine). A backend serves one connection, and a connection
 * one holder at a time, so the counts are that thread's statements and nothing else's.
 *
 * <p>{@code pg_stat_statements} gives statements' wall time, which on a busy machine includes their
 * waits for a core; this gives the CPU time alone.
 */
final class BackendCpuPool implements DataSource, AutoCloseable {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final HikariDataSource pool;
  private final String threadName;
  private final LongAdder cpuNanos = new LongAdder();
  private final LongAdder waitNanos = new LongAdder();
  private final CpuTally cpuByStatement = new CpuTally();
  private final LongAdder probeNanos = new LongAdder();
  private final Map<String, String> keys = new ConcurrentHashMap<>();
  private volatile boolean readable = true;

  BackendCpuPool(String jdbcUrl, String threadName) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("drover-bench-measured");
    config.setJdbcUrl(jdbcUrl);
    // As Drover's own pool: text parameters bind to jsonb columns.
    config.addDataSourceProperty("stringtype", "unspecified");
    // Drover's own pool has this many, and listens on a connection of its own; on a borrowed pool
    // the listener holds one of the pool's.
    config.setMaximumPoolSize(StoreOptions.DEFAULT_POOL_SIZE + 1);
    this.pool = new HikariDataSource(config);
    this.threadName = threadName;
  }

  /** Backend CPU seconds spent for the thread so far, or NaN where schedstat cannot be read. */
  double cpuSeconds() {
    return readable ? cpuNanos.sum() / 1e9 : Double.NaN;
  }

  /** Seconds the thread's backends waited for a core so far, or NaN as {@link #cpuSeconds}. */
  double runQueueSeconds() {
    return readable ? waitNanos.sum() / 1e9 : Double.NaN;
  }

  /**
   * CPU seconds the measured thread spent in this pool's own counting so far (reading schedstat,
   * naming statements): the bench's cost, not the thread's work, so the visits workload takes it
   * out of the pass thread's CPU time.
   */
  double probeCpuSeconds() {
    return probeNanos.sum() / 1e9;
  }

  /** Starts the per-statement counts afresh (the totals keep counting). */
  void resetByStatement() {
    cpuByStatement.reset();
  }

  /**
   * Backend CPU seconds per kind of work, busiest first: each statement by the start of its text
   * (comments left out), and the connection's commit, rollback and setAutoCommit calls (which begin
   * and end transactions); empty where schedstat cannot be read.
   */
  Map<String, Double> cpuSecondsByStatement() {
    return cpuByStatement.seconds();
  }

  @Override
  public Connection getConnection() throws SQLException {
    Connection c = pool.getConnection();
    if (!readable || !Thread.currentThread().getName().equals(threadName)) {
      return c;
    }
    int pid = c.unwrap(PGConnection.class).getBackendPID();
    long[] before = schedstat(pid);
    if (before == null) {
      return c;
    }
    boolean[] closed = {false};
    return proxy(
        Connection.class,
        (proxy, method, args) -> {
          String name = method.getName();
          if (name.equals("close") && !closed[0]) {
            closed[0] = true;
            long[] after = schedstat(pid);
            if (after != null) {
              cpuNanos.add(after[0] - before[0]);
              waitNanos.add(after[1] - before[1]);
            }
          }
          if (name.equals("commit") || name.equals("rollback") || name.equals("setAutoCommit")) {
            return timed(pid, name, () -> invoke(method, c, args));
          }
          Object result = invoke(method, c, args);
          if (result instanceof PreparedStatement statement
              && args != null
              && args[0] instanceof String sql) {
            return timedStatement(pid, statement, sql);
          }
          return result;
        });
  }

  /** The statement, with its executions' backend CPU counted under the start of its text. */
  private PreparedStatement timedStatement(int pid, PreparedStatement statement, String sql) {
    long cpu = THREADS.getCurrentThreadCpuTime();
    String key = keys.computeIfAbsent(sql, BackendCpuPool::key);
    probeNanos.add(THREADS.getCurrentThreadCpuTime() - cpu);
    return proxy(
        PreparedStatement.class,
        (proxy, method, args) ->
            method.getName().startsWith("execute")
                ? timed(pid, key, () -> invoke(method, statement, args))
                : invoke(method, statement, args));
  }

  /** The start of a statement's text, comments left out: what its CPU is counted under. */
  private static String key(String sql) {
    String kind = sql.replaceAll("--[^\\n]*", " ").replaceAll("\\s+", " ").trim();
    return kind.substring(0, Math.min(90, kind.length()));
  }

  private interface Call {
    Object call() throws Throwable;
  }

  private Object timed(int pid, String key, Call call) throws Throwable {
    long[] before = schedstat(pid);
    try {
      return call.call();
    } finally {
      long[] after = schedstat(pid);
      if (before != null && after != null) {
        cpuByStatement.add(key, after[0] - before[0]);
      }
    }
  }

  private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
  }

  /**
   * A process's time on a core and waiting for one, in nanoseconds; null if unreadable. What the
   * read costs the calling thread is counted in {@link #probeCpuSeconds}.
   */
  private long[] schedstat(int pid) {
    long cpu = THREADS.getCurrentThreadCpuTime();
    try {
      return readSchedstat(pid);
    } finally {
      probeNanos.add(THREADS.getCurrentThreadCpuTime() - cpu);
    }
  }

  private long[] readSchedstat(int pid) {
    long[] times = CpuMeter.schedstat(pid);
    if (times == null) {
      readable = false;
    }
    return times;
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    throw new SQLFeatureNotSupportedException("the bench's pool takes the URL's credentials");
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return pool.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    pool.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    pool.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return pool.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() {
    return Logger.getLogger("dev.drover.bench");
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return pool.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return pool.isWrapperFor(iface);
  }

  @Override
  public void close() {
    pool.close();
  }
}
