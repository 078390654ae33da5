package io.github.mcpsubscriptions.sample.catalog;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

/**
 * Products in the database: the embedded one by default, any other through the standard
 * {@code spring.datasource.*} properties.
 */
@Repository
public class ProductRepository {

	private final JdbcClient jdbc;

	public ProductRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	public List<Product> findAll() {
		return this.jdbc.sql("select id, name, price from product order by id").query(Product.class).list();
	}

	public List<Long> findAllIds() {
		return this.jdbc.sql("select id from product order by id").query(Long.class).list();
	}

	public Optional<Product> findById(long id) {
		return this.jdbc.sql("select id, name, price from product where id = ?")
			.param(id)
			.query(Product.class)
			.optional();
	}

	public boolean update(long id, String name, BigDecimal price) {
		return this.jdbc.sql("update product set name = ?, price = ? where id = ?")
			.params(name, price, id)
			.update() == 1;
	}

	public long insert(String name, BigDecimal price) {
		KeyHolder keys = new GeneratedKeyHolder();
		this.jdbc.sql("insert into product (name, price) values (?, ?)").params(name, price).update(keys, "id");
		return keys.getKeyAs(Number.class).longValue();
	}

	public boolean delete(long id) {
		return this.jdbc.sql("delete from product where id = ?").param(id).update() == 1;
	}

}
