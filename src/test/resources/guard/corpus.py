#!/usr/bin/env python3
"""Writes sqlite.tsv, h2.tsv and mysql.tsv from the engine-neutral cases of postgres.tsv plus each
engine's own bypasses and every denied function in every position. Run it after editing; the
corpus files are the reviewed artefacts and SqlGuardCorpusTest reads them."""

PG_ONLY = ("::", "$", "E'", "jsonb", "DISTINCT ON", "pg_", "lo_", "dblink", "set_config", "query_to_xml",
           "txid", "~", "->", "ARRAY[", "TABLESAMPLE", "AT TIME ZONE", "SHOW ", "current_setting",
           "generate_series", "ILIKE", "FILTER (", "WITHIN GROUP", "LATERAL", "nextval", "setval",
           "NULLS LAST", "FETCH FIRST", "CUBE", "ROLLUP", "GROUPING SETS", "interval", "INTERVAL",
           "information_schema", "regexp_replace", "string_agg", "array_agg", "unnest", "to_char",
           "date_trunc", "DATE '", "E'\\", "FOR NO KEY", "SKIP LOCKED", "NOWAIT", "\\0", "\u200b",
           "ＤＥＬＥＴＥ", "；", "DO ", "LISTEN", "NOTIFY", "DISCARD", "CLUSTER", "REFRESH", "ALTER SYSTEM",
           "CREATE EXTENSION", "LOAD '", "ABORT", "END", "AND CHAIN", "PREPARE TRANSACTION", "SET ROLE",
           "SESSION AUTHORIZATION", "RESET ROLE", "SET LOCAL", "COPY", "FULL OUTER", "md5", "now()",
           "extract(", "percentile", "json_", "row_to_json", "to_", "position(", "trim(both", "\\")


def unescape(s):
    return s.replace("\\n", "\n").replace("\\r", "\r").replace("\\t", "\t").replace("\\0", "\0").replace("\\\\", "\\")


def neutral_cases():
    allow, reject = [], []
    for line in open("postgres.tsv", encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        kind, sql = line[0], line[2:]
        if any(marker.lower() in sql.lower() for marker in PG_ONLY):
            continue
        (allow if kind == "A" else reject).append(unescape(sql))
    return allow, reject


# standard SQL analytics that every engine's guard must let through
STANDARD_READS = [
    "SELECT customer_id, count(*) AS orders, sum(total) AS spent FROM invoice GROUP BY customer_id HAVING count(*) > 5 ORDER BY spent DESC",
    "SELECT c.country, avg(i.total) FROM customer c JOIN invoice i ON i.customer_id = c.customer_id GROUP BY c.country",
    "SELECT t.name, a.title FROM track t JOIN album a ON a.album_id = t.album_id WHERE t.milliseconds > 300000",
    "SELECT g.name, count(t.track_id) FROM genre g LEFT JOIN track t ON t.genre_id = g.genre_id GROUP BY g.name",
    "SELECT e.last_name, m.last_name AS manager FROM employee e LEFT JOIN employee m ON m.employee_id = e.reports_to",
    "SELECT album_id, count(*) FROM track GROUP BY album_id HAVING count(*) >= 10",
    "SELECT name FROM artist WHERE artist_id NOT IN (SELECT artist_id FROM album)",
    "SELECT * FROM invoice WHERE total > (SELECT avg(total) FROM invoice)",
    "SELECT billing_country, max(total), min(total), count(DISTINCT customer_id) FROM invoice GROUP BY billing_country",
    "SELECT t.name FROM track t WHERE EXISTS (SELECT 1 FROM invoice_line l WHERE l.track_id = t.track_id)",
    "SELECT invoice_id, total, rank() OVER (ORDER BY total DESC) FROM invoice",
    "SELECT invoice_id, total, sum(total) OVER (PARTITION BY customer_id ORDER BY invoice_date) FROM invoice",
    "SELECT customer_id, total, lag(total, 1) OVER (PARTITION BY customer_id ORDER BY invoice_date) FROM invoice",
    "SELECT customer_id, avg(total) OVER (PARTITION BY customer_id) FROM invoice",
    "SELECT track_id, dense_rank() OVER (PARTITION BY genre_id ORDER BY milliseconds DESC) FROM track",
    "SELECT name, row_number() OVER (ORDER BY name) FROM genre",
    "WITH sales AS (SELECT customer_id, sum(total) AS s FROM invoice GROUP BY customer_id) SELECT * FROM sales WHERE s > 40",
    "WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT * FROM b",
    "WITH top AS (SELECT genre_id, count(*) AS n FROM track GROUP BY genre_id) SELECT g.name, top.n FROM top JOIN genre g ON g.genre_id = top.genre_id",
    "SELECT name FROM genre UNION ALL SELECT name FROM media_type",
    "SELECT genre_id FROM genre EXCEPT SELECT genre_id FROM track",
    "SELECT customer_id FROM customer INTERSECT SELECT customer_id FROM invoice",
    "SELECT CASE WHEN total >= 10 THEN 'big' WHEN total >= 5 THEN 'medium' ELSE 'small' END AS size, count(*) FROM invoice GROUP BY 1",
    "SELECT coalesce(composer, 'unknown'), count(*) FROM track GROUP BY 1",
    "SELECT upper(name), lower(name), length(name) FROM artist",
    "SELECT replace(name, ' ', '_') FROM genre",
    "SELECT abs(-5), round(3.14159, 2), floor(2.7), ceil(2.1)",
    "SELECT count(*), count(composer), count(DISTINCT composer) FROM track",
    "SELECT min(invoice_date), max(invoice_date) FROM invoice",
    "SELECT cast(total AS INTEGER) FROM invoice",
    "SELECT * FROM track ORDER BY milliseconds DESC LIMIT 10",
    "SELECT DISTINCT billing_country FROM invoice ORDER BY billing_country",
    "SELECT t.name FROM track t INNER JOIN playlist_track p ON p.track_id = t.track_id WHERE p.playlist_id = 1",
    "SELECT * FROM customer WHERE country IN ('USA', 'Canada') AND city LIKE 'S%'",
    "SELECT * FROM customer WHERE company IS NULL",
    "SELECT * FROM invoice WHERE total BETWEEN 5 AND 10",
    "SELECT first_name || ' ' || last_name AS full_name FROM customer",
    "SELECT (SELECT count(*) FROM track) AS tracks, (SELECT count(*) FROM album) AS albums",
    "SELECT a.title, x.n FROM album a JOIN (SELECT album_id, count(*) AS n FROM track GROUP BY album_id) x ON x.album_id = a.album_id",
    "SELECT sum(unit_price * quantity) FROM invoice_line",
    "SELECT 'DROP TABLE track' AS harmless_text",
    "SELECT 'a;b;c' AS semicolons",
    "SELECT 1 AS \"delete\", 2 AS \"insert\"",
    "SELECT x FROM (SELECT 1 AS x) sub WHERE x = 1",
    "SELECT count(*) FROM track WHERE name <> 'Intro'",
    "SELECT genre_id, avg(milliseconds) / 1000 AS seconds FROM track GROUP BY genre_id ORDER BY seconds DESC",
    "SELECT media_type_id, sum(bytes) FROM track GROUP BY media_type_id",
    "SELECT * FROM track WHERE (genre_id = 1 OR genre_id = 2) AND NOT (milliseconds < 1000)",
    "SELECT max(total) - min(total) AS spread FROM invoice",
    "SELECT name FROM playlist ORDER BY name DESC",
    "  SELECT 1  ",
    "SELECT 1 ;",
]


def positions(fn, arg):
    return [
        f"SELECT {fn}({arg})", f"SELECT {fn.upper()}({arg})", f"SELECT {fn} ({arg})", f"SELECT {fn}/* x */({arg})",
        f"SELECT * FROM t WHERE {fn}({arg}) IS NOT NULL", f"SELECT (SELECT {fn}({arg}))",
        f"WITH c AS (SELECT {fn}({arg})) SELECT * FROM c", f"SELECT 1 UNION ALL SELECT {fn}({arg})",
        f"SELECT x FROM t ORDER BY {fn}({arg})", f"SELECT CASE WHEN 1 = 1 THEN {fn}({arg}) END",
        f"SELECT main.{fn}({arg})", f"SELECT 1 FROM t GROUP BY x HAVING {fn}({arg}) > 0",
        f"SELECT * FROM t WHERE x IN (SELECT {fn}({arg}))", f"SELECT coalesce({fn}({arg}), 0)",
        f"SELECT 1 FROM t JOIN u ON {fn}({arg}) = 1", f"SELECT {fn}(\n{arg}\n)",
    ]


ENGINES = {
    "sqlite": {
        "reads": ["SELECT `Name` FROM `Track`", "SELECT [Name] FROM [Track]", "SELECT group_concat(Name, ', ') FROM Genre",
                  "SELECT strftime('%Y-%m', InvoiceDate), count(*) FROM Invoice GROUP BY 1",
                  "SELECT julianday('now') - julianday(InvoiceDate) FROM Invoice", "SELECT typeof(Total) FROM Invoice",
                  "SELECT ifnull(Composer, 'unknown') FROM Track", "SELECT Name FROM Track WHERE Name GLOB 'A*'",
                  "SELECT substr(Name, 1, 3) FROM Track", "SELECT printf('%.2f', Total) FROM Invoice",
                  "SELECT * FROM Track LIMIT 5 OFFSET 10", "SELECT 1 /* a /* b */",
                  "SELECT 1 AS a --x\r, 2 AS b", "SELECT 1 /*/ a */"],
        "rejects": ["ATTACH DATABASE '/tmp/x.db' AS x", "DETACH DATABASE x", "PRAGMA writable_schema = ON",
                    "PRAGMA query_only = OFF", "VACUUM INTO '/tmp/copy.db'", "REINDEX", "ANALYZE",
                    "INSERT OR REPLACE INTO t VALUES (1)", "REPLACE INTO t VALUES (1)", "UPSERT INTO t VALUES (1)",
                    "SELECT 1 /* a /* b */ ; DROP TABLE t", "SELECT 1; ATTACH '/tmp/x' AS x",
                    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM t; END", "CREATE VIRTUAL TABLE v USING fts5(x)",
                    "SELECT [unclosed", "SELECT `unclosed",
                    # issue 17: a $name(...) parameter may hold a quote
                    "SELECT $a(') , load_extension('x') , $b(')"],
        "functions": [("load_extension", "'/tmp/x.so'"), ("writefile", "'/tmp/x', 'y'"), ("readfile", "'/etc/passwd'"),
                      ("fts3_tokenizer", "'simple'"), ("edit", "'x'"), ("zipfile", "'/tmp/x.zip'")],
    },
    "h2": {
        "reads": ["SELECT * FROM INFORMATION_SCHEMA.TABLES", "SELECT DATEADD('DAY', -30, CURRENT_DATE)",
                  "SELECT FORMATDATETIME(CURRENT_TIMESTAMP, 'yyyy-MM')", "SELECT * FROM t LIMIT 5",
                  "SELECT LISTAGG(x, ', ') FROM t", "SELECT X FROM T OFFSET 5 ROWS FETCH NEXT 5 ROWS ONLY",
                  "SELECT CAST(X AS DECIMAL(10, 2)) FROM T", "SELECT 1 /* a /* b */ c */",
                  "SELECT 1 //a_comment", "SELECT U&'\\0041' AS a", "SELECT $$a;b$$"],
        "rejects": ["RUNSCRIPT FROM '/tmp/x.sql'", "SCRIPT TO '/tmp/dump.sql'", "BACKUP TO '/tmp/x.zip'",
                    "CREATE ALIAS EXEC AS 'String e(String c) { return c; }'", "SET EXCLUSIVE 1", "SHUTDOWN",
                    "CALL CSVWRITE('/tmp/x.csv', 'SELECT 1')", "SET DB_CLOSE_DELAY 0", "CREATE LINKED TABLE l('', 'x', '', '', 't')",
                    "MERGE INTO T KEY (ID) VALUES (1)", "SELECT * FROM T FOR UPDATE",
                    # issue 17: // comments, \r ending a comment, and no $tag$ quotes in H2
                    "SELECT 1 // '\n, FILE_READ('/etc/passwd') -- '",
                    "SELECT 1 AS a --x\r, FILE_READ('/etc/passwd') AS f",
                    "SELECT $a$, FILE_READ('/etc/passwd'), $a$",
                    "SELECT U&\"FILE_REA\\0044\"('/etc/passwd')"],
        "functions": [("file_read", "'/etc/passwd'"), ("file_write", "'x', '/tmp/x'"), ("csvread", "'/tmp/x.csv'"),
                      ("csvwrite", "'/tmp/x.csv', 'SELECT 1'"), ("link_schema", "'x', '', 'jdbc:h2:mem:', '', '', 'PUBLIC'"),
                      ("cancel_session", "1"), ("abort_session", "1")],
    },
    "mysql": {
        "reads": ["SELECT `name` FROM `track`", "SELECT * FROM t LIMIT 5, 10", "SELECT GROUP_CONCAT(name SEPARATOR ', ') FROM t",
                  "SELECT DATE_FORMAT(created, '%Y-%m') FROM t", "SELECT IFNULL(x, 0) FROM t", "SELECT \"double quoted string\"",
                  "SELECT 1 # a hash comment", "SELECT 1 -- a dash comment", "SELECT 1 /*+ MAX_EXECUTION_TIME(1000) */",
                  "SELECT 'it''s'", "SELECT x FROM t WHERE y REGEXP '^a'", "SELECT SQL_NO_CACHE x FROM t",
                  "SELECT 1 --1"],
        "rejects": ["SELECT 1 --1; DROP TABLE t", "SELECT 1 #; \nDROP TABLE t", "SELECT 1 /*!50000 ; DROP TABLE t */",
                    "SELECT 1 /*! UNION SELECT LOAD_FILE('/etc/passwd') */", "SELECT 'a\\'; DROP TABLE t; -- '",
                    "SELECT \"a\\\"; DROP TABLE t; -- \"", "SELECT * INTO OUTFILE '/tmp/x' FROM t",
                    "SELECT * FROM t INTO DUMPFILE '/tmp/x'", "SELECT x INTO @v FROM t",
                    "LOAD DATA INFILE '/etc/passwd' INTO TABLE t", "HANDLER t OPEN", "SET GLOBAL general_log = 1",
                    "SET @@session.sql_mode = ''", "FLUSH TABLES", "KILL 1", "INSTALL PLUGIN x SONAME 'x.so'",
                    # issue 17: "--" then any control character starts a comment
                    "SELECT 1 --\x01 '\n, sleep(5) -- '",
                    "REPLACE INTO t VALUES (1)", "INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE x = 1",
                    "SELECT * FROM t LOCK IN SHARE MODE", "USE mysql", "SHOW GRANTS; DROP TABLE t"],
        "functions": [("load_file", "'/etc/passwd'"), ("sleep", "10"), ("benchmark", "1000000, md5('x')"),
                      ("get_lock", "'a', 10"), ("release_lock", "'a'"), ("sys_exec", "'id'"), ("master_pos_wait", "'f', 1")],
    },
}


def write(name, allow, reject):
    seen, lines = set(), []
    for kind, items in (("A", allow), ("R", reject)):
        for sql in items:
            if (kind, sql) in seen:
                continue
            seen.add((kind, sql))
            lines.append(kind + "\t" + sql.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t").replace("\0", "\\0"))
    with open(name, "w", encoding="utf-8") as f:
        f.write("# Guard corpus: A<TAB>sql must run as a read, R<TAB>sql must be refused before reaching the database.\n")
        f.write("# Written by corpus.py from postgres.tsv's engine-neutral cases and this engine's own. Escapes: \\n \\r \\t \\0 \\\\.\n")
        f.write("\n".join(lines) + "\n")
    print(name, sum(l[0] == "A" for l in lines), "allowed,", sum(l[0] == "R" for l in lines), "refused")


if __name__ == "__main__":
    neutral_allow, neutral_reject = neutral_cases()
    for engine, cases in ENGINES.items():
        functions = [s for fn, arg in cases["functions"] for s in positions(fn, arg)]
        write(engine + ".tsv", neutral_allow + STANDARD_READS + cases["reads"], neutral_reject + cases["rejects"] + functions)
