insert into product (id, name, price) select 1, 'Desk lamp', 24.90 where not exists (select 1 from product where id = 1);
insert into product (id, name, price) select 2, 'Notebook', 3.50 where not exists (select 1 from product where id = 2);
insert into product (id, name, price) select 3, 'Fountain pen', 42.00 where not exists (select 1 from product where id = 3);
insert into product (id, name, price) select 4, 'Desk chair', 189.00 where not exists (select 1 from product where id = 4);
insert into product (id, name, price) select 5, 'Monitor stand', 35.75 where not exists (select 1 from product where id = 5);
