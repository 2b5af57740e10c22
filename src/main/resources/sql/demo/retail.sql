-- The demo retail shop. Deterministic: every "random" value is hash() of row numbers, and dates
-- count back from {TODAY}, so a given day always produces the same data.
CREATE OR REPLACE MACRO u(i, salt) AS (hash(i, salt) % 1000000) / 1000000.0;

CREATE TABLE categories (
  category_id INTEGER PRIMARY KEY,
  name        VARCHAR NOT NULL,
  name_zh     VARCHAR NOT NULL
);
INSERT INTO categories VALUES
  (1, 'Electronics', '电子产品'), (2, 'Home & Kitchen', '家居厨房'), (3, 'Clothing', '服装'),
  (4, 'Sports & Outdoors', '运动户外'), (5, 'Beauty', '美妆'), (6, 'Toys', '玩具'),
  (7, 'Books', '图书'), (8, 'Grocery', '食品杂货'), (9, 'Furniture', '家具'), (10, 'Garden', '园艺'),
  (11, 'Office', '办公用品'), (12, 'Pet Supplies', '宠物用品');
COMMENT ON TABLE categories IS 'Product categories, with Chinese names';

CREATE TABLE products (
  product_id  INTEGER PRIMARY KEY,
  category_id INTEGER NOT NULL REFERENCES categories (category_id),
  name        VARCHAR NOT NULL,
  name_zh     VARCHAR NOT NULL,
  unit_price  DECIMAL(10, 2) NOT NULL,
  unit_cost   DECIMAL(10, 2) NOT NULL,
  launched_on DATE NOT NULL
);
INSERT INTO products
SELECT i,
       1 + (i - 1) % 12,
       (['Classic', 'Smart', 'Compact', 'Deluxe', 'Eco', 'Pro', 'Mini', 'Ultra', 'Family', 'Travel'])[1 + (i - 1) // 12 % 10]
         || ' ' || (['Gadget', 'Pan', 'Jacket', 'Racket', 'Serum', 'Puzzle', 'Novel', 'Tea', 'Chair', 'Planter', 'Notebook', 'Leash'])[1 + (i - 1) % 12]
         || ' ' || i,
       (['经典', '智能', '紧凑', '豪华', '环保', '专业', '迷你', '超级', '家庭', '旅行'])[1 + (i - 1) // 12 % 10]
         || (['小工具', '平底锅', '夹克', '球拍', '精华液', '拼图', '小说', '茶叶', '椅子', '花盆', '笔记本', '牵引绳'])[1 + (i - 1) % 12]
         || i,
       round(5 + 295 * u(i, 1), 2)::DECIMAL(10, 2),
       round((5 + 295 * u(i, 1)) * (0.45 + 0.3 * u(i, 2)), 2)::DECIMAL(10, 2),
       DATE '{TODAY}' - INTERVAL (900 + (u(i, 3) * 1500)::INTEGER) DAY
FROM range(1, 241) t(i);
COMMENT ON TABLE products IS 'Products with English and Chinese names, list price and unit cost';

CREATE TABLE stores (
  store_id  INTEGER PRIMARY KEY,
  name      VARCHAR NOT NULL,
  city      VARCHAR NOT NULL,
  city_zh   VARCHAR NOT NULL,
  region    VARCHAR NOT NULL,
  opened_on DATE NOT NULL
);
INSERT INTO stores
SELECT row_number() OVER () AS store_id, city || ' ' || branch, city, city_zh, region,
       DATE '{TODAY}' - INTERVAL (1000 + 37 * row_number() OVER ()) DAY
FROM (VALUES ('Shanghai', '上海', 'East China'), ('Beijing', '北京', 'North China'), ('Shenzhen', '深圳', 'South China'),
             ('Guangzhou', '广州', 'South China'), ('Hangzhou', '杭州', 'East China'), ('Chengdu', '成都', 'West China'),
             ('Wuhan', '武汉', 'Central China'), ('Nanjing', '南京', 'East China'), ('Seoul', '首尔', 'Korea'),
             ('Tokyo', '东京', 'Japan'), ('Osaka', '大阪', 'Japan'), ('Singapore', '新加坡', 'Southeast Asia'))
       cities(city, city_zh, region),
     (VALUES ('Central'), ('Mall')) branches(branch)
ORDER BY city, branch;
COMMENT ON TABLE stores IS 'Stores with their city (English and Chinese) and sales region';

CREATE TABLE customers (
  customer_id INTEGER PRIMARY KEY,
  name        VARCHAR NOT NULL,
  email       VARCHAR NOT NULL,
  city        VARCHAR NOT NULL,
  segment     VARCHAR NOT NULL,
  signed_up   DATE NOT NULL
);
INSERT INTO customers
SELECT i,
       (['Wei', 'Li', 'Min', 'Yuki', 'Ji-woo', 'Hana', 'Chen', 'Sora', 'Mei', 'Jun', 'Anna', 'Omar'])[1 + (hash(i, 4) % 12)::INTEGER]
         || ' ' || (['Wang', 'Zhang', 'Liu', 'Sato', 'Kim', 'Park', 'Tan', 'Lee', 'Suzuki', 'Zhao', 'Smith', 'Garcia'])[1 + (hash(i, 5) % 12)::INTEGER],
       'customer' || i || '@example.com',
       (SELECT city FROM stores WHERE store_id = 1 + (hash(i, 6) % 24)::INTEGER),
       (['consumer', 'consumer', 'consumer', 'small business', 'corporate'])[1 + (hash(i, 7) % 5)::INTEGER],
       DATE '{TODAY}' - INTERVAL ((u(i, 8) * 1400)::INTEGER) DAY
FROM range(1, 20001) t(i);
COMMENT ON TABLE customers IS 'Customers with home city and segment';

CREATE TABLE orders (
  order_id    BIGINT PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
  store_id    INTEGER NOT NULL REFERENCES stores (store_id),
  ordered_at  TIMESTAMP NOT NULL,
  channel     VARCHAR NOT NULL,
  status      VARCHAR NOT NULL
);
INSERT INTO orders
SELECT i,
       1 + (hash(i, 9) % 20000)::INTEGER,
       1 + (hash(i, 10) % 24)::INTEGER,
       TIMESTAMP '{TODAY} 00:00:00' - INTERVAL ((u(i, 11) * 730 * 86400)::BIGINT) SECOND,
       (['store', 'store', 'online', 'app'])[1 + (hash(i, 12) % 4)::INTEGER],
       (['completed', 'completed', 'completed', 'completed', 'completed', 'completed', 'completed', 'completed', 'returned', 'cancelled'])[1 + (hash(i, 13) % 10)::INTEGER]
FROM range(1, 120001) t(i);
COMMENT ON TABLE orders IS 'Orders over the last 24 months, with channel and status';

CREATE TABLE order_items (
  order_id   BIGINT NOT NULL REFERENCES orders (order_id),
  line_no    INTEGER NOT NULL,
  product_id INTEGER NOT NULL REFERENCES products (product_id),
  quantity   INTEGER NOT NULL,
  unit_price DECIMAL(10, 2) NOT NULL,
  discount   DECIMAL(4, 2) NOT NULL,
  PRIMARY KEY (order_id, line_no)
);
INSERT INTO order_items
SELECT o.order_id, l.line_no, p.product_id,
       1 + (hash(o.order_id, l.line_no, 15) % 4)::INTEGER,
       p.unit_price,
       (([0, 0, 0, 0.05, 0.10, 0.15])[1 + (hash(o.order_id, l.line_no, 16) % 6)::INTEGER])::DECIMAL(4, 2)
FROM orders o
CROSS JOIN range(1, 5) l(line_no)
JOIN products p ON p.product_id = 1 + (hash(o.order_id, l.line_no, 14) % 240)::INTEGER
WHERE l.line_no <= 1 + (hash(o.order_id, 17) % 4)::INTEGER;
COMMENT ON TABLE order_items IS 'Order lines: product, quantity, unit price and discount';

CREATE TABLE inventory (
  store_id   INTEGER NOT NULL REFERENCES stores (store_id),
  product_id INTEGER NOT NULL REFERENCES products (product_id),
  quantity   INTEGER NOT NULL,
  updated_at TIMESTAMP NOT NULL,
  PRIMARY KEY (store_id, product_id)
);
INSERT INTO inventory
SELECT s.store_id, p.product_id,
       (u(s.store_id * 1000 + p.product_id, 18) * 400)::INTEGER,
       TIMESTAMP '{TODAY} 00:00:00' - INTERVAL ((u(s.store_id * 1000 + p.product_id, 19) * 7 * 86400)::BIGINT) SECOND
FROM stores s CROSS JOIN products p;
COMMENT ON TABLE inventory IS 'Stock on hand per store and product';

CREATE INDEX orders_ordered_at ON orders (ordered_at);
CREATE INDEX order_items_product ON order_items (product_id);
DROP MACRO u;
