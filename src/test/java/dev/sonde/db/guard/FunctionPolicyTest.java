package dev.sonde.db.guard;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The judgement from DuckDB's own catalogue, and how names compare. */
class FunctionPolicyTest {
  @Test
  void duckDbFunctionsAreJudgedByTheirCatalogueEntry() throws Exception {
    try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
      try (Statement st = duckdb.createStatement()) {
        st.execute("CREATE MACRO twice(x) AS x * 2");
      }
      FunctionPolicy policy = FunctionPolicy.duckdb(SqlGuard.Profile.DUCKDB.denylist(), duckdb);
      // volatile with a side effect, and a table function nobody reviewed
      assertTrue(policy.refusal("write_log").contains("marks it volatile"));
      assertTrue(policy.refusal("CHECKPOINT").startsWith("checkpoint() is not allowed"));
      assertTrue(policy.refusal("query").contains("given as text"));
      assertTrue(policy.refusal("read_csv").contains("reads files"));
      // reviewed: they only read or draw random numbers
      assertNull(policy.refusal("random"));
      assertNull(policy.refusal("duckdb_tables"));
      assertNull(policy.refusal("twice"));
      // keywords and types stand before a parenthesis too; a table name is not known
      assertTrue(policy.knows("IN") && policy.knows("decimal") && policy.knows("Twice"));
      assertFalse(policy.knows("my_table"));
    }
  }

  @Test
  void withoutACatalogueTheFixedListStillHoldsAndEveryNameCountsAsKnown() {
    FunctionPolicy policy = FunctionPolicy.fixed(SqlGuard.Profile.SQLITE.denylist());
    assertTrue(policy.refusal("Load_Extension").startsWith("load_extension() is not allowed"));
    assertTrue(policy.refusal("query_to_xml").contains("runs SQL"));
    assertNull(policy.refusal("upper"));
    assertTrue(policy.knows("anything"));
  }
}
