/*
 * pmprof's HTML report: the flame graph of the report's stacks (the JSON
 * in #pm-stacks: column names, then [stack, [value per column]] rows) and
 * sortable tables. No network, no library: the page is one file.
 *
 * The URL fragment says what to show, so that a view can be linked (and
 * a browser without a mouse, as the tests' headless one, can drive it):
 *   #weight=COLUMN&zoom=all;main;f&search=REGEX&sort=TABLE:COLUMN:asc|desc
 *   &info=all;main;f (that frame's hover box, pinned)
 * and, after drawing, what a user would do, as the events a mouse and a
 * keyboard send (a headless browser has neither; the tests and
 * scripts/pictures.sh drive the page's own handlers with them):
 *   &click=all;main;f (a click on that frame) &hover=all;main;f (the
 *   mouse over it) &type=TEXT (TEXT typed into the search box)
 * a frame not drawn is an error in #pm-errors.
 */
(function () {
	'use strict';
	var errors = document.getElementById('pm-errors');
	window.addEventListener('error', function (e) {
		errors.textContent += (e.message || 'error') + '\n';
	});

	var ROW = 18;		/* pixels per frame */
	var MIN_WIDTH = 0.05;	/* frames narrower than this share are not drawn */
	var data = JSON.parse(document.getElementById('pm-stacks').textContent);
	var graph = document.getElementById('pm-fg');
	var tip = document.getElementById('pm-tip');
	var status = document.getElementById('pm-status');
	var weightSel = document.getElementById('pm-weight');
	var searchBox = document.getElementById('pm-search');
	var col = 0, zoom = null, search = null, info = null, acts = [];

	/* ---- the tree: each node's values include its callees' ---- */
	function node(name, parent) {
		return { name: name, parent: parent, kids: {}, order: [],
			 v: new Array(data.columns.length).fill(0),
			 depth: parent ? parent.depth + 1 : 0 };
	}
	var root = node('all', null), maxDepth = 0;
	data.stacks.forEach(function (row) {
		var n = root, frames = row[0].split(';');
		var add = function (x) {
			for (var c = 0; c < row[1].length; c++)
				x.v[c] += row[1][c];
		};
		add(root);
		frames.forEach(function (f) {
			if (!Object.prototype.hasOwnProperty.call(n.kids, f)) {
				n.kids[f] = node(f, n);
				n.order.push(f);
			}
			n = n.kids[f];
			add(n);
		});
		maxDepth = Math.max(maxDepth, frames.length);
	});
	function path(n) {
		var p = [];
		for (; n; n = n.parent)
			p.unshift(n.name);
		return p.join(';');
	}
	function find(p) {
		var n = root, parts = p.split(';');
		if (parts[0] !== 'all')
			return null;
		for (var i = 1; i < parts.length && n; i++)
			n = Object.prototype.hasOwnProperty.call(n.kids, parts[i]) ?
				n.kids[parts[i]] : null;
		return n;
	}

	/* ---- per-frame metrics, where the events allow them ---- */
	function colOf(re) {
		for (var c = 0; c < data.columns.length; c++)
			if (re.test(data.columns[c]))
				return c;
		return -1;
	}
	var cyc = colOf(/(^|[^a-z])(cpu[-_])?cycles/), ins = colOf(/instructions/);
	var ratios = [
		['CPI', cyc, ins, 1], ['IPC', ins, cyc, 1],
		['cache miss rate', colOf(/cache-misses/), colOf(/cache-references/), 100],
		['branch miss rate', colOf(/branch-misses/), colOf(/^branch(es|-instructions)/), 100],
		['L1D miss rate', colOf(/L1-dcache-load-misses/), colOf(/L1-dcache-loads/), 100],
		['cache MPKI', colOf(/cache-misses/), ins, 1000],
		['branch MPKI', colOf(/branch-misses/), ins, 1000]
	].filter(function (r) { return r[1] >= 0 && r[2] >= 0; });
	function fmt(x) {
		return Math.abs(x) >= 100 || x === Math.round(x) ?
			String(Math.round(x)) : x.toPrecision(4);
	}
	function describe(n) {
		var lines = [n.name], top = zoom.v[col] || 1;
		data.columns.forEach(function (name, c) {
			var self = n.v[c];
			n.order.forEach(function (k) { self -= n.kids[k].v[c]; });
			lines.push(name + ': ' + n.v[c] + ' (' +
				   (100 * n.v[c] / (root.v[c] || 1)).toFixed(2) +
				   '%), self ' + self);
		});
		ratios.forEach(function (r) {
			if (n.v[r[2]])
				lines.push(r[0] + ': ' + fmt(r[3] * n.v[r[1]] / n.v[r[2]]) +
					   (r[3] === 100 ? '%' : ''));
		});
		if (diff)
			lines.push('share ' + (100 * n.v[0] / (root.v[0] || 1)).toFixed(2) +
				   '% -> ' + (100 * n.v[1] / (root.v[1] || 1)).toFixed(2) + '%');
		lines.push((100 * n.v[col] / top).toFixed(2) + '% of the view');
		return lines.join('\n');
	}

	/* ---- a differential graph's colours: the change of share ---- */
	var diff = !!data.differential;
	function change(n) {
		return n.v[1] / (root.v[1] || 1) - n.v[0] / (root.v[0] || 1);
	}
	var maxChange = 0;
	(function walkChange(n) {
		maxChange = Math.max(maxChange, Math.abs(change(n)));
		n.order.forEach(function (k) { walkChange(n.kids[k]); });
	})(root);
	function diffColour(n) {
		var c = change(n), x = maxChange ? Math.abs(c) / maxChange : 0;
		var light = Math.round(95 - 45 * x);
		return c > 0 ? 'hsl(0,85%,' + light + '%)' :
			c < 0 ? 'hsl(220,85%,' + light + '%)' : 'hsl(0,0%,92%)';
	}

	/* ---- drawing ---- */
	function hue(name) {
		var h = 0;
		for (var i = 0; i < name.length; i++)
			h = (h * 31 + name.charCodeAt(i)) >>> 0;
		return 'hsl(' + (10 + h % 40) + ',' + (60 + h % 30) + '%,' +
			(55 + h % 15) + '%)';
	}
	function frame(n, left, width) {
		var d = document.createElement('div');
		d.className = 'pm-frame';
		if (search && search.test(n.name))
			d.className += ' pm-match';
		d.dataset.name = n.name;
		d.dataset.path = path(n);
		d.dataset.value = n.v[col];
		d.style.left = left + '%';
		d.style.width = width + '%';
		d.style.bottom = n.depth * ROW + 'px';
		if (diff) {
			var c = change(n);
			d.dataset.change = c > 0 ? 'grew' : c < 0 ? 'shrank' : 'same';
		}
		d.style.background = d.className.indexOf('pm-match') >= 0 ? '' :
			diff ? diffColour(n) : hue(n.name);
		d.textContent = n.name;
		d.pmNode = n;
		graph.appendChild(d);
	}
	function draw() {
		var total = zoom.v[col], matched = 0;
		graph.textContent = '';
		graph.style.height = (maxDepth + 1) * ROW + 'px';
		for (var a = zoom; a; a = a.parent)
			frame(a, 0, 100);
		/* matched: the weight under the outermost matching frames */
		var walk = function (n, left, inMatch) {
			n.order.forEach(function (k) {
				var kid = n.kids[k], w = total ? 100 * kid.v[col] / total : 0;
				var match = !inMatch && search && search.test(kid.name);
				if (w >= MIN_WIDTH)
					frame(kid, left, w);
				if (match)
					matched += kid.v[col];
				walk(kid, left, inMatch || match);
				left += w;
			});
		};
		walk(zoom, 0, false);
		status.textContent = data.columns[col] + ': ' + total +
			(search ? ', matched ' + matched + ' (' +
			 (100 * matched / (total || 1)).toFixed(2) + '%)' : '');
		var h = [];
		if (col)
			h.push('weight=' + encodeURIComponent(data.columns[col]));
		if (zoom !== root)
			h.push('zoom=' + encodeURIComponent(path(zoom)));
		if (search)
			h.push('search=' + encodeURIComponent(search.source));
		if (history.replaceState)
			history.replaceState(null, '', h.length ? '#' + h.join('&') : '#');
	}
	graph.addEventListener('click', function (e) {
		if (e.target.pmNode) {
			zoom = e.target.pmNode;
			draw();
		}
	});
	graph.addEventListener('mousemove', function (e) {
		if (!e.target.pmNode) {
			tip.hidden = true;
			return;
		}
		tip.textContent = describe(e.target.pmNode);
		tip.hidden = false;
		tip.style.left = (e.pageX + 12) + 'px';
		tip.style.top = (e.pageY + 12) + 'px';
	});
	graph.addEventListener('mouseleave', function () { tip.hidden = true; });
	data.columns.forEach(function (name, c) {
		var o = document.createElement('option');
		o.value = c;
		o.textContent = name;
		weightSel.appendChild(o);
	});
	weightSel.addEventListener('change', function () {
		col = +weightSel.value;
		draw();
	});
	function setSearch(s) {
		if (!s) {
			search = null;
			return;
		}
		try {
			search = new RegExp(s);
		} catch (err) {
			search = new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
		}
	}
	searchBox.addEventListener('input', function () {
		setSearch(searchBox.value);
		draw();
	});
	document.getElementById('pm-reset').addEventListener('click', function () {
		zoom = root;
		draw();
	});

	/* ---- sortable tables: click a header; again for the other way ---- */
	function cellValue(td) {
		var t = td.textContent.trim(), x = parseFloat(t.replace(/%$/, ''));
		return t === '' || t === '-' ? null : isNaN(x) || !/^[-+0-9.]/.test(t) ? t : x;
	}
	function sortTable(table, c, desc) {
		var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
		rows.sort(function (a, b) {
			var x = cellValue(a.cells[c]), y = cellValue(b.cells[c]);
			if (x === null || y === null)
				return (x === null) - (y === null);
			var r = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0)
				: typeof x === 'number' ? -1 : 1;
			return desc ? -r : r;
		});
		rows.forEach(function (r) { body.appendChild(r); });
		Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
			th.setAttribute('aria-sort', i === c ? (desc ? 'descending' : 'ascending') : 'none');
		});
	}
	var tables = document.querySelectorAll('table.pm-sortable');
	Array.prototype.forEach.call(tables, function (table) {
		Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
			th.addEventListener('click', function () {
				sortTable(table, i, th.getAttribute('aria-sort') !== 'descending');
			});
		});
	});

	/* ---- the fragment's acts: the events of a click, a hover, typing ---- */
	function act(a) {
		if (a[0] === 'type') {
			searchBox.value = a[1];
			searchBox.dispatchEvent(new Event('input', { bubbles: true }));
			return;
		}
		var el = null;
		Array.prototype.forEach.call(graph.children, function (d) {
			if (d.dataset.path === a[1])
				el = d;
		});
		if (!el)
			throw new Error(a[0] + ': no frame ' + a[1] + ' drawn');
		var r = el.getBoundingClientRect();
		el.dispatchEvent(new MouseEvent(a[0] === 'click' ? 'click' : 'mousemove', {
			bubbles: true, view: window,
			clientX: r.left + Math.min(r.width / 2, 40), clientY: r.top + r.height / 2
		}));
	}

	/* ---- the view the fragment names ---- */
	zoom = root;
	if (diff)
		col = data.columns.indexOf('new') >= 0 ? data.columns.indexOf('new') : 0;
	location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
		var i = kv.indexOf('='), k = kv.slice(0, i), v = decodeURIComponent(kv.slice(i + 1));
		if (i < 0)
			return;
		if (k === 'weight' && data.columns.indexOf(v) >= 0)
			col = data.columns.indexOf(v);
		else if (k === 'zoom')
			zoom = find(v) || root;
		else if (k === 'info')
			info = find(v);
		else if (k === 'click' || k === 'hover' || k === 'type')
			acts.push([k, v]);
		else if (k === 'search') {
			setSearch(v);
			searchBox.value = v;
		} else if (k === 'sort') {
			var s = v.split(':');
			if (tables[+s[0]])
				sortTable(tables[+s[0]], +s[1], s[2] === 'desc');
		}
	});
	weightSel.value = col;
	draw();
	if (info) {
		tip.textContent = describe(info);
		tip.dataset.path = path(info);
		tip.hidden = false;
	}
	acts.forEach(act);
	document.body.dataset.ready = 'yes';
})();
