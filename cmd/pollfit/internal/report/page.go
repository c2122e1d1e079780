package report

import "html/template"

var page = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="pollfit">
<title>{{.Title}}</title>
<style>
:root { color-scheme: light; --fg: #1d1d1f; --muted: #5f6368; --line: #d9d9de; --accent: #0072b2; --warn: #fff4e5; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 66rem; padding: 1rem clamp(0.6rem, 3vw, 2rem) 3rem;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: #fff; }
h1 { font-size: 1.6rem; margin: 0.4rem 0 0.2rem; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 2rem 0 0.4rem; border-bottom: 1px solid var(--line); padding-bottom: 0.2rem; }
p { margin: 0.4rem 0; }
.muted { color: var(--muted); font-size: 0.9rem; }
#lead { font-size: 1.05rem; font-weight: 600; }
#points li { margin: 0.25rem 0; }
#decision td.name { white-space: nowrap; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.88rem; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem 0.8rem; white-space: pre-wrap; overflow-wrap: break-word; margin: 0.4rem 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0.6rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
@media (max-width: 32rem) { dl.facts { grid-template-columns: 1fr; } dl.facts dd { margin-bottom: 0.4rem; } }
.warnings { background: var(--warn); border-left: 4px solid #e69f00; padding: 0.5rem 0.8rem; margin: 1rem 0; }
.warnings ul { margin: 0; padding-left: 1.2rem; }
figure { margin: 0.6rem 0 1.2rem; }
figure svg text { font-family: "Liberation Sans", Arial, Helvetica, sans-serif !important; }
figure svg { display: block; width: 100%; height: auto; max-width: 40rem; margin: 0 auto; }
figcaption { color: var(--muted); font-size: 0.92rem; }
.table { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; font-size: 0.9rem; min-width: 100%; }
th, td { padding: 0.3rem 0.35rem; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th { background: #f6f8fa; position: sticky; top: 0; white-space: normal; vertical-align: bottom; }
td.name, th.name { text-align: left; font-weight: 600; }
td.schedule, th.schedule { text-align: left; white-space: normal; min-width: 14rem; overflow-wrap: anywhere; }
h3 { font-size: 1rem; margin: 1.2rem 0 0.3rem; }
dl.schedules dt { font-weight: 600; margin-top: 0.4rem; }
dl.schedules dd { margin: 0 0 0 1rem; overflow-wrap: anywhere; }
details summary { cursor: pointer; }
details pre { max-height: 16rem; overflow-y: auto; }
nav ul { display: flex; flex-wrap: wrap; gap: 0.2rem 1rem; padding: 0; list-style: none; margin: 0.4rem 0; font-size: 0.92rem; }
a { color: var(--accent); }
</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
<p class="muted" style="overflow-wrap:anywhere">Inputs: {{range $i, $p := .Inputs}}{{if $i}}, {{end}}<code>{{$p}}</code>{{end}}</p>
</header>
<nav><ul>
<li><a href="#summary">Summary</a></li>
{{- range .Figures}}
<li><a href="#{{.ID}}">{{.Title}}</a></li>
{{- end}}
<li><a href="#metrics">Metrics</a></li>
<li><a href="#reproduce">Reproduce</a></li>
</ul></nav>
{{- if .Warnings}}
<div class="warnings" id="warnings"><strong>Caveats</strong><ul>
{{- range .Warnings}}
<li>{{.}}</li>
{{- end}}
</ul></div>
{{- end}}
<section id="summary">
<h2>Summary</h2>
{{- with .Summary}}
{{- with .Segments}}
<h3>One schedule per value of {{.By}}</h3>
<ul id="segments-decisions">
{{- range .Decisions}}
<li><strong>{{template "sentence" .}}</strong></li>
{{- end}}
</ul>
<p id="segments-lead">{{template "sentence" .Lead}}</p>
<div class="table"><table id="segments">
<thead><tr><th class="name">{{.By}}</th><th>share</th><th>mean lag</th><th>p95</th><th>requests / item</th><th>budget</th><th>stuck asks</th><th>missed</th><th>give up</th><th class="schedule">schedule</th></tr></thead>
<tbody>
{{- range .Rows}}
<tr><td class="name">{{.Name}}</td><td>{{template "part" .Share}}</td><td>{{template "part" .Lag}}</td><td>{{template "part" .P95}}</td><td>{{template "part" .Req}}</td><td>{{template "part" .Budget}}</td><td>{{template "part" .Stuck}}</td><td>{{template "part" .Missed}}</td><td>{{template "part" .GiveUp}}</td><td class="schedule">{{template "part" .Schedule}}</td></tr>
{{- end}}
</tbody>
</table></div>
<ul id="segments-points">
{{- range .Points}}
<li>{{template "sentence" .}}</li>
{{- end}}
</ul>
{{- end}}
{{- if .Segments}}
<h3>One schedule for all values of {{.Segments.By}}</h3>
{{- end}}
{{- if .Decision}}
<p id="decision-sentence"><strong>{{template "sentence" .Decision}}</strong></p>
{{- end}}
<p id="lead">{{template "sentence" .Lead}}</p>
<pre id="schedule">{{.Schedule}}</pre>
<div class="table"><table id="decision">
<thead><tr><th class="name">schedule</th><th>mean lag</th><th>95% interval</th><th>requests / item</th><th>95% interval</th><th>stuck asks</th><th>missed</th></tr></thead>
<tbody>
{{- range .Rows}}
<tr><td class="name">{{.Name}} <span class="muted">({{.Role}})</span></td><td>{{template "part" .Lag}}</td><td>{{template "part" .LagCI}}</td><td>{{template "part" .Req}}</td><td>{{template "part" .ReqCI}}</td><td>{{template "part" .Stuck}}</td><td>{{template "part" .Missed}}</td></tr>
{{- end}}
</tbody>
</table></div>
<ul id="points">
{{- range .Points}}
<li>{{template "sentence" .}}</li>
{{- end}}
</ul>
{{- end}}
<h3>The data and the fit</h3>
<dl class="facts">
{{- range .Facts}}
<dt>{{.Label}}</dt><dd>{{.Value}}</dd>
{{- end}}
</dl>
</section>
{{- range .Figures}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
<figure data-series="{{.Series}}">
{{.SVG}}
<figcaption>{{.Text}}</figcaption>
</figure>
</section>
{{- end}}
<section id="metrics">
<h2>Metrics</h2>
{{- if .MetricsNote}}
<p class="muted">{{.MetricsNote}}</p>
{{- end}}
<div class="table"><table>
<thead><tr><th class="name">schedule</th><th>mean lag</th><th>p50</th><th>p90</th><th>p99</th><th>max</th><th>requests / item</th><th>detected</th><th>missed</th><th>pending</th><th>missed share</th><th>stuck asks</th>{{range .AsksBy}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr><td class="name">{{.Name}}</td><td>{{.Mean}}</td><td>{{.P50}}</td><td>{{.P90}}</td><td>{{.P99}}</td><td>{{.Max}}</td><td>{{.Req}}</td><td>{{.Detected}}</td><td>{{.Missed}}</td><td>{{.Pending}}</td><td>{{.MissedShare}}</td><td>{{.Stuck}}</td>{{range .AsksBy}}<td>{{.}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table></div>
<h3>Schedules</h3>
<dl class="schedules">
{{- range .Rows}}
<dt>{{.Name}}</dt>
{{- if .Short}}
<dd><details><summary><code>{{.Short}}</code></summary><pre>{{.Schedule}}</pre></details></dd>
{{- else}}
<dd><code>{{.Schedule}}</code></dd>
{{- end}}
{{- end}}
</dl>
</section>
<section id="reproduce">
<h2>Reproduce</h2>
<pre id="command">{{.Command}}</pre>
</section>
{{- if .Version}}
<footer id="version" class="muted">written by pollfit {{.Version}}</footer>
{{- end}}
</body>
</html>
{{define "part"}}{{if .Figs}}<span class="fig" data-figs="{{range $i, $f := .Figs}}{{if $i}};{{end}}{{$f.Key}}={{$f.Value}}{{end}}">{{if .Code}}<code>{{.Text}}</code>{{else}}{{.Text}}{{end}}</span>{{else}}{{.Text}}{{end}}{{end}}
{{define "sentence"}}{{range .}}{{template "part" .}}{{end}}{{end}}
`))
