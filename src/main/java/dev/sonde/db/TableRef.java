package dev.sonde.db;

/** A table or view: where it lives, its name and its kind (TABLE, VIEW, TAG). */
public record TableRef(String catalog, String schema, String name, String kind) {
  /** {@code database.schema.table}, leaving out the parts the engine does not have. */
  public String qualified() {
    StringBuilder out = new StringBuilder();
    if (catalog != null && !catalog.isEmpty()) {
      out.append(catalog).append('.');
    }
    if (schema != null && !schema.isEmpty()) {
      out.append(schema).append('.');
    }
    return out.append(name).toString();
  }

  public TableRef withKind(String newKind) {
    return new TableRef(catalog, schema, name, newKind);
  }
}
