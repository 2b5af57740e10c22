-- Time-series tag tables in long format (tag name, time, value), deterministic like retail.sql.
-- {NOW} is the current second; the sensor feeds end there.
CREATE OR REPLACE MACRO u(i, salt) AS (hash(i, salt) % 1000000) / 1000000.0;

CREATE TABLE "EXAMPLE" (NAME VARCHAR NOT NULL, TIME TIMESTAMP NOT NULL, VALUE DOUBLE NOT NULL);
INSERT INTO "EXAMPLE"
SELECT tag, TIMESTAMP '{NOW}' - INTERVAL (2592000 - s) SECOND,
       CASE tag
         WHEN 'temperature' THEN 21 + 4 * sin(2 * pi() * s / 86400) + (u(s, 1) - 0.5)
         WHEN 'humidity' THEN 55 - 10 * sin(2 * pi() * s / 86400) + 2 * (u(s, 2) - 0.5)
         ELSE 1013 + 3 * sin(2 * pi() * s / 604800) + 0.5 * (u(s, 3) - 0.5)
       END
FROM range(0, 2592000) t(s), (VALUES ('temperature'), ('humidity'), ('pressure')) tags(tag)
ORDER BY tag, s;
COMMENT ON TABLE "EXAMPLE" IS 'Sensor tags temperature, humidity and pressure at 1 s for 30 days';

CREATE TABLE "GOLD" (NAME VARCHAR NOT NULL, TIME TIMESTAMP NOT NULL, VALUE DOUBLE NOT NULL);
INSERT INTO "GOLD"
WITH days AS (
  SELECT d, CAST(TIMESTAMP '{NOW}' AS DATE) - INTERVAL (1095 - d) DAY AS day,
         1800 * exp(0.0002 * d + 0.1 * sin(d / 90.0)) AS mid
  FROM range(0, 1095) t(d)
)
SELECT tag, day,
       CASE tag
         WHEN 'open' THEN mid * (1 + 0.008 * (u(d, 21) - 0.5))
         WHEN 'close' THEN mid * (1 + 0.008 * (u(d, 22) - 0.5))
         WHEN 'high' THEN mid * (1.006 + 0.006 * u(d, 23))
         WHEN 'low' THEN mid * (0.994 - 0.006 * u(d, 24))
         ELSE round(100000 + 80000 * u(d, 25))
       END
FROM days, (VALUES ('open'), ('close'), ('high'), ('low'), ('volume')) tags(tag)
ORDER BY tag, d;
COMMENT ON TABLE "GOLD" IS 'Daily gold price tags open, close, high, low and volume for 3 years';

CREATE TABLE "VIBRATION" (NAME VARCHAR NOT NULL, TIME TIMESTAMP NOT NULL, VALUE DOUBLE NOT NULL);
INSERT INTO "VIBRATION"
SELECT tag, TIMESTAMP '{NOW}' - INTERVAL (3600000 - ms) MILLISECOND,
       CASE tag
         WHEN 'x' THEN 0.8 * sin(2 * pi() * 50 * ms / 1000) + 0.2 * sin(2 * pi() * 87 * ms / 1000) + 0.1 * (u(ms, 31) - 0.5)
         WHEN 'y' THEN 0.5 * sin(2 * pi() * 50 * ms / 1000 + 1) + 0.1 * (u(ms, 32) - 0.5)
         ELSE 0.3 * sin(2 * pi() * 120 * ms / 1000) + 0.1 * (u(ms, 33) - 0.5)
       END
FROM range(0, 3600000) t(ms), (VALUES ('x'), ('y'), ('z')) tags(tag)
ORDER BY tag, ms;
COMMENT ON TABLE "VIBRATION" IS 'Accelerometer axes x, y and z at 1 kHz for an hour';

CREATE TABLE "DRIVING" (NAME VARCHAR NOT NULL, TIME TIMESTAMP NOT NULL, VALUE DOUBLE NOT NULL);
INSERT INTO "DRIVING"
WITH samples AS (
  SELECT trip, k,
         TIMESTAMP '{NOW}' - INTERVAL (trip * 86400) SECOND + INTERVAL (k * 100) MILLISECOND AS sampled_at,
         greatest(0, 60 + 40 * sin(k / 900.0 + trip) + 5 * (u(trip * 100000 + k, 41) - 0.5)) AS speed
  FROM range(1, 6) t(trip), range(0, 12000) s(k)
)
SELECT tag, sampled_at,
       CASE tag WHEN 'speed' THEN speed ELSE 800 + speed * (35 - 5 * least(4, floor(speed / 25))) END
FROM samples, (VALUES ('speed'), ('rpm')) tags(tag)
ORDER BY tag, sampled_at;
COMMENT ON TABLE "DRIVING" IS 'Vehicle speed (km/h) and engine rpm at 10 Hz for five 20-minute trips';
DROP MACRO u;
