-- Profile "postgres": products 1-5 where missing (the rows of data.sql). ON CONFLICT keeps a restart,
-- or a node starting beside another, from failing or adding them twice; rows that are already
-- there are not written, so the capture reports nothing for them.
insert into product (id, name, price) values
	(1, 'Desk lamp', 24.90),
	(2, 'Notebook', 3.50),
	(3, 'Fountain pen', 42.00),
	(4, 'Desk chair', 189.00),
	(5, 'Monitor stand', 35.75)
on conflict (id) do nothing;
