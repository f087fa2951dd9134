"""A strategy explorer: one self-contained HTML page for a solution of an extensive-form game.

:func:`write_view` writes one HTML file (inline CSS and a small vanilla script; no external
resource, it opens offline from disk) showing

* the certificate (kind, exploitability, NashConv, bounds), the method, the iterations,
  whether the solve converged and every player's value;
* the family's own panels, where it has some (:mod:`guts.studies.view_families`: the
  hold'em 13 x 13 chart, Mercer bet frequencies, guts thresholds, continuous-poker
  regions); a solution that is not of an extensive-form game (a guts coalition) has these
  and the certificate only;
* the public tree, level by level: a click on a node shows its children and, at a decision
  node, the mover's action probabilities for every type (hand), as numbers and bars;
* filters by player, by round (public chance events on the path) and by depth (actions
  and chance events on the path), and a text filter on the type (hand) label; with a
  player, round or depth filter the matching decisions are also listed, a page at a time.

The data are embedded as one JSON document (``<script type="application/json"
id="guts-data">``): the public tree as flat arrays in breadth-first order (children of a
node are consecutive), edge labels as indices into one table of distinct labels, and the
family panels (:mod:`guts.studies.view_families`); the probabilities, integers in units of
``1 / PROB_UNITS`` (four decimals) in one flat array, follow as little-endian uint16 in
base64 (``<script type="text/plain" id="guts-p">``: 2.7 characters a probability, against
about 5 as JSON), decoded only where a table is drawn.  The script renders a subtree only
when it is opened, so a game with millions of information sets opens as fast as a small
one.  Every label reaches the page as data (``textContent``), never as markup; the JSON is
escaped so that no label can close its ``<script>`` block.  :func:`read_page` reads the
document back (tests, scripts).

Layout of the JSON (``VIEW_FORMAT``): ``np`` players, ``types[p]`` labels of player p's
types, ``labs`` distinct edge labels, per node ``lab`` (label index of the edge from its
parent, -1 at the root), ``kid0`` and ``nkid`` (first child and number of children),
``mover`` (the player to act; :data:`CHANCE` for an inner node where nobody acts, a
public chance event; :data:`LEAF` for an end of the tree; :data:`GROUP` for the
per-player folders, and their root, of a game whose information sets are not public
histories: ``explicit`` is then true and the children of a decision are its actions) and
``off`` (index in ``p`` of the decision's ``num_types x num_actions`` probabilities, row
by type, or -1).  ``kid0`` and ``off`` are prefix sums (of ``nkid``, and of the decisions'
sizes, in breadth-first order): the page leaves them out and its script recomputes them.
"""
from __future__ import annotations

import base64
import html
import json
import math
import os
from collections import deque
from pathlib import Path

import numpy as np

from guts.errors import GutsInputError

from .output import atomic_path
from .view_families import PROB_UNITS  # probabilities as integers in these units (error <= 5e-5)

__all__ = ["write_view", "view_data", "read_page", "PROB_UNITS", "VIEW_FORMAT", "CHANCE", "LEAF", "GROUP",
           "MAX_TYPE_ROWS"]

#: Version of the embedded JSON layout (2: the probabilities in their own base64 block).
VIEW_FORMAT = 2
#: ``mover`` codes of nodes where no player acts.
CHANCE, LEAF, GROUP = -1, -2, -3
#: Rows (types) of one strategy table drawn before the page asks for the type filter.
MAX_TYPE_ROWS = 200


def _finite(x):
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def _players_strategies(solution):
    s = getattr(solution, "strategies", None)
    if not (isinstance(s, tuple) and s and all(isinstance(sp, dict) for sp in s)):
        raise GutsInputError(f"a {type(solution).__name__} holds no per-information-set strategies; accepted: "
                             "an extensive-form solution (strategies[p][history] arrays)")
    return s


def view_data(solution, game, *, title=None, panels=None) -> dict:
    """The JSON document embedded in the page (see the module docstring).

    Parameters
    ----------
    solution : ExtensiveResult or Result
        A solution of ``game`` (``strategies[p][history]`` of shape ``(num_types, num_actions)``).
    game : PublicTreeGame or ExplicitGame or None
        The game solved (for the action and type labels); ``None`` for a solution that is not
        of an extensive-form game (the page then shows the certificate and the panels only).
    title : str, optional
        Shown at the top of the page (default: the game's name and the method).
    panels : list of dict, optional
        Family-specific panels shown below the certificate (:mod:`guts.studies.view_families`).

    Returns
    -------
    dict
        The document; ``p`` is a uint16 array (the page carries it in base64, and leaves
        ``kid0`` and ``off`` for its script to recompute).
    """
    if game is None:
        return _document(solution, None, title=title, panels=panels, tree=_EMPTY_TREE, n=None)
    strategies = _players_strategies(solution)
    n = int(game.num_players)
    if len(strategies) != n:
        raise GutsInputError(f"the solution has strategies for {len(strategies)} players but the game "
                             f"{game.name!r} has {n}; accepted: a solution of this game")
    num_types = tuple(int(t) for t in game.num_types)
    labels = getattr(game.deals, "type_labels", None)
    types = [[str(x) for x in labels[p]] if labels is not None else [str(t) for t in range(num_types[p])]
             for p in range(n)]
    # the public tree as a trie of histories: a node per prefix of a decision's history and
    # per action of a decision; information sets named by other keys go into a folder per player
    children, mover, decision = {(): {}}, {}, {}

    def node(path):
        k = len(path)
        while path[:k] not in children:           # the longest prefix already in the tree
            k -= 1
        for j in range(k + 1, len(path) + 1):
            children[path[:j - 1]].setdefault(path[j - 1], path[:j])
            children[path[:j]] = {}

    for p in range(n):
        actions = game.action_labels(p)
        for key, arr in strategies[p].items():
            if key not in actions:
                raise GutsInputError(f"the solution's information set {key!r} of player {p} is not one of the "
                                     f"game {game.name!r}; accepted: a solution of this game")
            path = key if isinstance(key, tuple) else (("player", p), key)
            if path in mover:
                raise GutsInputError(f"players {mover[path]} and {p} both act at {key!r}; accepted: a game "
                                     "whose decision points have one mover each")
            acts = tuple(actions[key])
            a = np.asarray(arr, dtype=float)
            if a.shape != (num_types[p], len(acts)):
                raise GutsInputError(f"the strategy of player {p} at {key!r} has shape {a.shape}; accepted: "
                                     f"({num_types[p]}, {len(acts)}) (types x actions of this game)")
            if not np.all(np.isfinite(a)):
                raise GutsInputError(f"the strategy of player {p} at {key!r} has a non-finite probability; "
                                     "accepted: finite probabilities")
            node(path)
            mover[path] = p
            decision[path] = a
            kids = children[path]
            for lab in acts:                      # the actions first, in the game's order
                kids.setdefault(lab, path + (lab,))
            children[path] = {lab: kids[lab] for lab in acts} | {k: v for k, v in kids.items() if k not in acts}
            for lab in acts:
                children.setdefault(path + (lab,), {})
    for path, p in mover.items():
        if len(children[path]) != decision[path].shape[1]:
            extra = list(children[path])[decision[path].shape[1]]
            raise GutsInputError(f"a history of the game continues the decision {path!r} of player {p} with "
                                 f"{extra!r}, which is not one of its actions; accepted: a game whose histories "
                                 "follow its actions")
    # breadth-first numbering: the children of a node are consecutive
    order, index = [()], {(): 0}
    queue = deque([()])
    while queue:
        path = queue.popleft()
        for child in children[path].values():
            index[child] = len(order)
            order.append(child)
            queue.append(child)
    explicit = any(not isinstance(key, tuple) for sp in strategies for key in sp)
    lab_ids, labs = {}, []
    lab, kid0, nkid, mv, off = [], [], [], [], []
    chunks, total = [], 0
    for path in order:
        if path:
            last = path[-1]
            text = f"player {last[1]}" if isinstance(last, tuple) and len(last) == 2 and last[0] == "player" \
                and len(path) == 1 else str(last)
            lab.append(lab_ids.setdefault(text, len(lab_ids)))
            if lab[-1] == len(labs):
                labs.append(text)
        else:
            lab.append(-1)
        kids = children[path]
        kid0.append(index[next(iter(kids.values()))] if kids else -1)
        nkid.append(len(kids))
        if path in mover:
            mv.append(mover[path])
            a = np.rint(np.clip(decision[path], 0.0, 1.0) * PROB_UNITS).astype(np.int64).ravel()
            off.append(total)
            chunks.append(a)
            total += a.size
        else:
            grouped = (len(path) == 1 and isinstance(path[0], tuple) and len(path[0]) == 2
                       and path[0][0] == "player") or (not path and explicit)
            mv.append(GROUP if grouped else (CHANCE if kids else LEAF))
            off.append(-1)
    probs = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int64)
    tree = {"explicit": explicit, "types": types, "labs": labs, "lab": lab, "kid0": kid0, "nkid": nkid,
            "mover": mv, "off": off, "p": probs.astype(np.uint16)}
    return _document(solution, game, title=title, panels=panels, tree=tree, n=n)


#: The tree of a page without one (a solution that is not of an extensive-form game).
_EMPTY_TREE = {"explicit": False, "types": [], "labs": [], "lab": [], "kid0": [], "nkid": [], "mover": [],
               "off": [], "p": np.zeros(0, dtype=np.uint16)}


def _document(solution, game, *, title, panels, tree, n):
    c = solution.certificate
    cert = {"kind": str(getattr(c, "kind", ""))}
    for name in ("exploitability", "nash_conv", "max_regret", "lower", "upper", "gap"):
        v = _finite(getattr(c, name, None))
        if v is not None:
            cert[name] = v
    values = [_finite(v) for v in np.atleast_1d(np.asarray(solution.values, dtype=float))]
    method = str(getattr(solution, "method", ""))
    name = str(getattr(game, "name", "") or getattr(solution, "name", "") or "game")
    # a family may name the sides (a guts coalition: player 1 and the coalition)
    names = next((P["players"] for P in panels or [] if isinstance(P, dict) and P.get("players")), None)
    return {
        "format": VIEW_FORMAT, "title": str(title) if title is not None else f"{name}: {method} solution",
        "game": name, "np": n if n is not None else len(values), "units": PROB_UNITS, "maxrows": MAX_TYPE_ROWS,
        "method": method, "iters": int(getattr(solution, "num_iter", 0)),
        "converged": bool(getattr(solution, "converged", False)), "values": values, "cert": cert,
        "panels": list(panels or []), "nprob": int(np.asarray(tree["p"]).size), **tree,
        **({"names": [str(x) for x in names]} if names else {}),
    }


#: Entries of :func:`view_data` that the page does not carry as JSON: ``p`` (its own base64
#: block), ``kid0`` and ``off`` (prefix sums of ``nkid`` and of the decisions' sizes in
#: breadth-first order, recomputed by the script and by :func:`read_page`).
_DERIVED = ("p", "kid0", "off")


def _probabilities_b64(p) -> str:
    return base64.b64encode(np.ascontiguousarray(np.asarray(p), dtype="<u2").tobytes()).decode("ascii")


def read_page(text) -> dict:
    """The document embedded in a page written by :func:`write_view` (``text``: the page's
    HTML, or its path), with ``p`` decoded: the probabilities, in units of ``1 / units``."""
    if isinstance(text, (str, os.PathLike)) and not str(text).lstrip().startswith("<"):
        text = Path(os.fspath(text)).read_text(encoding="utf-8")
    _, _, rest = text.partition('<script type="application/json" id="guts-data">')
    doc = json.loads(rest.partition("</script>")[0])
    blob = text.partition('<script type="text/plain" id="guts-p">')[2].partition("</script>")[0]
    doc["p"] = np.frombuffer(base64.b64decode(blob), dtype="<u2").astype(np.int64).tolist()
    doc["kid0"], doc["off"], nk, no = [], [], 1, 0
    for m, k in zip(doc["mover"], doc["nkid"]):
        doc["kid0"].append(nk if k else -1)
        nk += k
        doc["off"].append(no if m >= 0 else -1)
        no += len(doc["types"][m]) * k if m >= 0 else 0
    return doc


def _json_for_html(data) -> str:
    """JSON text that cannot end its ``<script>`` block (``<``, ``>``, ``&`` as ``\\u`` escapes)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _num(x, fmt) -> str:
    return "n/a" if x is None else format(x, fmt)


def _player_name(d, p) -> str:
    names = d.get("names")
    return str(names[p]) if names and p < len(names) else f"player {p}"


def _certificate_html(d) -> str:
    e = html.escape
    cert = d["cert"]
    rows = [("certificate", cert["kind"] or "n/a")]
    for name, label in (("exploitability", "exploitability"), ("nash_conv", "NashConv"),
                        ("max_regret", "max regret"), ("lower", "lower bound"), ("upper", "upper bound"),
                        ("gap", "gap")):
        if name in cert:
            rows.append((label, _num(cert[name], ".4g")))
    rows += [("converged", "yes" if d["converged"] else "no"), ("method", d["method"]),
             ("iterations", str(d["iters"])),
             ("values", "; ".join(f"{_player_name(d, p)}: {_num(v, '+.6f')}" for p, v in enumerate(d["values"])))]
    body = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in rows)
    return f'<table id="certificate" class="cert">{body}</table>'


_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:16px;color:#222;background:#fff}
h1{font-size:18px;margin:0 0 8px}
table.cert{border-collapse:collapse;margin-bottom:10px}
table.cert th{text-align:left;padding:1px 12px 1px 0;font-weight:600}
table.cert td{font-family:monospace}
#controls{margin:8px 0;padding:6px;background:#f3f3f3;border-radius:4px}
#controls label{margin-right:14px}
ul.tree{list-style:none;margin:0;padding-left:18px}
ul.tree.top{padding-left:0}
.row{cursor:pointer;padding:1px 2px;white-space:nowrap}
.row:hover{background:#eef}
.tog{display:inline-block;width:14px;color:#666}
.lab{font-family:monospace;font-weight:600;margin-right:6px}
.what{color:#555}.meta{color:#999;font-size:12px;margin-left:6px}
.dim .what,.dim .lab{color:#bbb}
table.strat{border-collapse:collapse;margin:3px 0 6px 18px;font-size:12px}
table.strat th,table.strat td{border:1px solid #ddd;padding:1px 6px}
table.strat th{background:#fafafa}
table.strat td.pr{position:relative;min-width:64px;font-family:monospace;text-align:right}
.bar{position:absolute;left:0;top:0;bottom:0;background:#c4dbf6;z-index:0}
.num{position:relative;z-index:1}
.note{color:#888;font-size:12px;margin-left:18px}
#list .item{margin-top:6px}
#timing{color:#999;font-size:11px;margin-top:12px}
.panel{margin:6px 0 14px;padding:6px 8px;border:1px solid #e3e3e3;border-radius:4px}
.panel h2{font-size:15px;margin:0 0 4px}.pnote{color:#666;font-size:12px;margin-bottom:4px}
table.grid{border-collapse:collapse;margin-top:4px}
table.grid td{border:1px solid #fff;width:38px;height:30px;text-align:center;font-size:10px;padding:0}
.gl{font-weight:600}.gv{font-family:monospace}
table.ptab{margin-left:0}
.band{display:flex;align-items:center;margin:3px 0}
.bname{width:230px;font-size:12px;color:#444;flex:none}
.bbar{position:relative;height:20px;flex:1;max-width:640px;background:#fafafa;border:1px solid #ddd}
.bbar.axis{border:none;background:none;height:14px;font-size:10px;color:#777}
.bbar.axis span{position:absolute;transform:translateX(-50%)}
.seg{position:absolute;top:0;bottom:0;overflow:hidden;font-size:10px;text-align:center;line-height:20px;
  border-right:1px solid #fff}
"""

_JS = r"""
(function(){
"use strict";
var t0=performance.now();
var D=JSON.parse(document.getElementById("guts-data").textContent);
var N=D.lab.length, U=D.units, P64=null;
function probs(o,n){
  /* n probabilities from offset o, decoded from the base64 little-endian uint16 block on demand */
  if(P64===null)P64=document.getElementById("guts-p").textContent;
  var b0=2*o,b1=2*(o+n),g0=Math.floor(b0/3),g1=Math.ceil(b1/3),out=new Uint16Array(n);
  if(!n)return out;
  var bin=atob(P64.slice(4*g0,4*g1)),sk=b0-3*g0;
  for(var i=0;i<n;i++)out[i]=bin.charCodeAt(sk+2*i)|(bin.charCodeAt(sk+2*i+1)<<8);
  return out;}
var parent=new Int32Array(N), depth=new Int32Array(N), round=new Int32Array(N);
/* first child and probability offset of every node: prefix sums in breadth-first order (not in the page) */
D.kid0=new Int32Array(N);D.off=new Int32Array(N);
for(var i=0,nk=1,no=0;i<N;i++){D.kid0[i]=D.nkid[i]?nk:-1;nk+=D.nkid[i];
  if(D.mover[i]>=0){D.off[i]=no;no+=D.types[D.mover[i]].length*D.nkid[i];}else D.off[i]=-1;}
if(N)parent[0]=-1;
for(i=0;i<N;i++){var k=D.kid0[i];for(var j=0;j<D.nkid[i];j++){parent[k+j]=i;depth[k+j]=depth[i]+1;
  round[k+j]=round[i]+(D.mover[i]===-1?1:0);}}
var maxDepth=0,maxRound=0;
for(i=0;i<N;i++){if(D.mover[i]>=0){if(depth[i]>maxDepth)maxDepth=depth[i];if(round[i]>maxRound)maxRound=round[i];}}
var open={0:true};
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;
  if(text!==undefined)e.textContent=text;return e;}
var fPlayer=document.getElementById("f-player"),fRound=document.getElementById("f-round"),
    fDepth=document.getElementById("f-depth"),fType=document.getElementById("f-type");
function opt(sel,v,t){var o=el("option",null,t);o.value=v;sel.appendChild(o);}
opt(fPlayer,"","all");for(i=0;i<D.np;i++)opt(fPlayer,String(i),"player "+i);
opt(fRound,"","all");for(i=0;i<=maxRound;i++)opt(fRound,String(i),String(i));
opt(fDepth,"","all");for(i=0;i<=maxDepth;i++)opt(fDepth,String(i),String(i));
function filt(){return {p:fPlayer.value===""?-1:+fPlayer.value,r:fRound.value===""?-1:+fRound.value,
  d:fDepth.value===""?-1:+fDepth.value,t:fType.value.toLowerCase()};}
function matches(i,f){return D.mover[i]>=0&&(f.p<0||D.mover[i]===f.p)&&(f.r<0||round[i]===f.r)&&
  (f.d<0||depth[i]===f.d);}
function label(i){return i===0?"(root)":D.labs[D.lab[i]];}
function what(i){var m=D.mover[i];if(m>=0)return "player "+m+" to act";if(m===-1)return "chance / public event";
  if(m===-3)return i===0?"players":"information sets";return D.explicit?"action":"end";}
function pathText(i){var s=[];while(i>0){s.push(D.labs[D.lab[i]]);i=parent[i];}
  return s.length?s.reverse().join(" \u00b7 "):"(root)";}
function table(i,f){
  var m=D.mover[i],types=D.types[m],na=D.nkid[i],o=D.off[i],k0=D.kid0[i],pv=probs(o,types.length*na);
  var t=el("table","strat"),hr=el("tr");hr.appendChild(el("th",null,"type"));
  for(var a=0;a<na;a++)hr.appendChild(el("th",null,D.labs[D.lab[k0+a]]));
  t.appendChild(hr);var shown=0,hidden=0;
  for(var ty=0;ty<types.length;ty++){
    if(f.t&&types[ty].toLowerCase().indexOf(f.t)<0)continue;
    if(shown>=D.maxrows){hidden++;continue;}
    var tr=el("tr");tr.appendChild(el("th",null,types[ty]));
    for(a=0;a<na;a++){var v=pv[ty*na+a]/U,td=el("td","pr"),b=el("span","bar");
      b.style.width=(100*v).toFixed(1)+"%";td.appendChild(b);td.appendChild(el("span","num",v.toFixed(4)));
      tr.appendChild(td);}
    t.appendChild(tr);shown++;}
  var box=el("div");box.appendChild(t);
  if(hidden)box.appendChild(el("div","note",hidden+" more types: narrow them with the type filter"));
  if(!shown)box.appendChild(el("div","note","no type matches the type filter"));
  return box;}
function renderNode(i,f){
  var li=el("li"),row=el("div","row"),m=D.mover[i];li.dataset.node=i;
  var any=f.p>=0||f.r>=0||f.d>=0;
  if(m>=0&&any&&!matches(i,f))row.className+=" dim";
  row.appendChild(el("span","tog",D.nkid[i]?(open[i]?"\u25be":"\u25b8"):"\u00b7"));
  row.appendChild(el("span","lab",label(i)));row.appendChild(el("span","what",what(i)));
  row.appendChild(el("span","meta","depth "+depth[i]+", round "+round[i]+
    (D.nkid[i]?", "+D.nkid[i]+" children":"")));
  row.addEventListener("click",function(){if(!D.nkid[i])return;open[i]=!open[i];
    li.parentNode.replaceChild(renderNode(i,filt()),li);});
  li.appendChild(row);
  if(open[i]&&D.nkid[i]){
    if(m>=0&&(!any||matches(i,f)))li.appendChild(table(i,f));
    var ul=el("ul","tree");
    for(var j=0;j<D.nkid[i];j++)ul.appendChild(renderNode(D.kid0[i]+j,f));
    li.appendChild(ul);}
  return li;}
var listed=0;
function renderList(more){
  var box=document.getElementById("list"),f=filt();
  if(!more){box.textContent="";listed=0;}
  var old=document.getElementById("more");if(old)old.remove();
  if(f.p<0&&f.r<0&&f.d<0)return;
  if(!more)box.appendChild(el("h2",null,"Matching decisions"));
  var count=0,seen=0;
  for(var i=0;i<N;i++){if(!matches(i,f))continue;seen++;
    if(seen<=listed)continue;
    if(count>=50){var b=el("button",null,"show more");b.id="more";
      b.addEventListener("click",function(){renderList(true);});box.appendChild(b);break;}
    var it=el("div","item");it.appendChild(el("div","lab",pathText(i)+" \u2014 player "+D.mover[i]+
      " (depth "+depth[i]+", round "+round[i]+")"));
    it.appendChild(table(i,f));box.appendChild(it);count++;}
  listed+=count;
  if(!listed)box.appendChild(el("div","note","no decision matches the filters"));}
function render(){var root=document.getElementById("tree");root.textContent="";
  if(N)root.appendChild(renderNode(0,filt()));renderList(false);}
var COL={check:"#cfcfcf",bluff:"#e9a3a3",value:"#93d193",bet:"#f1c776",call:"#8fb8e8",fold:"#f4f4f4",
  mixed:"#d6c6ef"};
function panelGrid(P,box){
  var sel=el("select"),wrap=el("div");
  P.actions.forEach(function(a,k){var o=el("option",null,a);o.value=String(k);sel.appendChild(o);});
  sel.value=String(P.default||0);var lab=el("label",null,"probability of ");lab.appendChild(sel);box.appendChild(lab);
  box.appendChild(wrap);
  function draw(){wrap.textContent="";var k=+sel.value,t=el("table","grid"),v=P.probs[k];
    for(var r=0;r<13;r++){var tr=el("tr");for(var c=0;c<13;c++){var i=13*r+c,x=v[i]/U,td=el("td");
      td.style.background="rgba(33,102,192,"+x.toFixed(3)+")";if(x>0.55)td.style.color="#fff";
      td.dataset.cls=P.labels[i];td.dataset.p=x.toFixed(4);td.title=P.labels[i]+": "+x.toFixed(4);
      td.appendChild(el("div","gl",P.labels[i]));td.appendChild(el("div","gv",x.toFixed(2)));tr.appendChild(td);}
      t.appendChild(tr);}
    wrap.appendChild(t);}
  sel.addEventListener("change",draw);draw();}
function panelTable(P,box){
  var t=el("table","strat ptab"),hr=el("tr");hr.appendChild(el("th",null,P.corner||""));
  P.cols.forEach(function(c){hr.appendChild(el("th",null,c));});t.appendChild(hr);
  for(var r=0;r<P.rows.length;r++){var tr=el("tr");tr.appendChild(el("th",null,P.rows[r]));
    for(var c=0;c<P.cols.length;c++){var q=P.vals[r*P.cols.length+c],td=el("td","pr");
      if(q<0){td.appendChild(el("span","num","\u2013"));tr.appendChild(td);continue;}
      var x=q/U,b=el("span","bar");b.style.width=(100*x).toFixed(1)+"%";td.appendChild(b);
      td.appendChild(el("span","num",x.toFixed(4)));tr.appendChild(td);}
    t.appendChild(tr);}
  box.appendChild(t);}
function panelSteps(P,box){
  var W=560,H=220,m=34,cv=el("canvas");cv.width=W;cv.height=H;box.appendChild(cv);
  var g=cv.getContext("2d"),cols=["#2166c0","#c0392b","#27ae60","#8e44ad","#d68910","#17a589","#7f8c8d"];
  g.strokeStyle="#999";g.strokeRect(m,8,W-m-8,H-m-8);g.fillStyle="#555";g.font="11px sans-serif";
  for(var k=0;k<=4;k++){var y=8+(H-m-8)*(1-k/4),x=m+(W-m-8)*k/4;g.fillText((k/4).toFixed(2),2,y+4);
    g.fillText((k/4).toFixed(2),Math.min(x-10,W-30),H-m+14);}
  g.fillText(P.xlabel||"",W/2-40,H-4);
  P.lines.forEach(function(L,j){var pts=[],acc=0;var idx=L.at.map(function(_,q){return q;}).sort(function(a,b){
      return L.at[a]-L.at[b];});
    pts.push([0,0]);idx.forEach(function(q){pts.push([L.at[q],acc]);acc+=L.w[q];pts.push([L.at[q],acc]);});
    pts.push([1,acc]);g.strokeStyle=cols[j%cols.length];g.lineWidth=2;g.beginPath();
    pts.forEach(function(p,q){var x=m+(W-m-8)*p[0],y=8+(H-m-8)*(1-p[1]);if(q)g.lineTo(x,y);else g.moveTo(x,y);});
    g.stroke();});
  var t=el("table","strat ptab"),hr=el("tr");
  ["line",P.atlabel||"threshold","probability"].forEach(function(h){hr.appendChild(el("th",null,h));});
  t.appendChild(hr);
  P.lines.forEach(function(L,j){for(var q=0;q<L.at.length;q++){var tr=el("tr"),th=el("th",null,L.name);
    th.style.color=cols[j%cols.length];tr.appendChild(th);var a=el("td",null,L.at[q].toFixed(6)),
    b=el("td",null,L.w[q].toFixed(6));a.className="at";b.className="w";tr.appendChild(a);tr.appendChild(b);
    tr.dataset.line=String(j);t.appendChild(tr);}});
  box.appendChild(t);}
function panelBands(P,box){
  P.rows.forEach(function(R){var row=el("div","band"),name=el("div","bname",R.name),bar=el("div","bbar");
    R.segs.forEach(function(S){var d=el("div","seg");d.style.left=(100*S[0]).toFixed(3)+"%";
      d.style.width=(100*(S[1]-S[0])).toFixed(3)+"%";d.style.background=COL[S[3]]||"#eee";
      d.dataset.lo=S[0].toFixed(6);d.dataset.hi=S[1].toFixed(6);d.dataset.what=S[2];
      d.title=S[2]+" on ("+S[0].toFixed(4)+", "+S[1].toFixed(4)+")";
      if(S[1]-S[0]>0.06)d.appendChild(el("span",null,S[2]));bar.appendChild(d);});
    row.appendChild(name);row.appendChild(bar);box.appendChild(row);});
  var ax=el("div","band"),sc=el("div","bbar axis");ax.appendChild(el("div","bname",P.xlabel||"hand"));
  [0,0.25,0.5,0.75,1].forEach(function(x){var s=el("span",null,x.toFixed(2));s.style.left=(100*x)+"%";
    sc.appendChild(s);});ax.appendChild(sc);box.appendChild(ax);}
var KINDS={grid:panelGrid,table:panelTable,steps:panelSteps,bands:panelBands};
(function(){var host=document.getElementById("panels");
  (D.panels||[]).forEach(function(P,k){var box=el("div","panel");box.id="panel-"+k;box.dataset.kind=P.kind;
    box.appendChild(el("h2",null,P.title));if(P.note)box.appendChild(el("div","pnote",P.note));
    if(KINDS[P.kind])KINDS[P.kind](P,box);host.appendChild(box);});})();
var args={};(location.hash||"").replace(/^#/,"").split("&").forEach(function(kv){var e=kv.indexOf("=");
  if(e>0)args[kv.slice(0,e)]=decodeURIComponent(kv.slice(e+1));});
if(args.player!==undefined)fPlayer.value=args.player;
if(args.round!==undefined)fRound.value=args.round;
if(args.depth!==undefined)fDepth.value=args.depth;
if(args.type!==undefined)fType.value=args.type;
if(args.open){var cur=0,parts=args.open.split("/");
  for(var q=0;q<parts.length&&parts[q]!=="";q++){var nxt=-1;
    for(var c=0;c<D.nkid[cur];c++)if(label(D.kid0[cur]+c)===parts[q])nxt=D.kid0[cur]+c;
    if(nxt<0)break;open[nxt]=true;cur=nxt;}}
[fPlayer,fRound,fDepth].forEach(function(s){s.addEventListener("change",render);});
fType.addEventListener("input",render);
render();
var t1=performance.now(),ms=t1-t0,tm=document.getElementById("timing");
tm.dataset.ms=ms.toFixed(1);tm.dataset.sinceStart=t1.toFixed(1);
tm.textContent=(D.panels||[]).length+" panels, "+(N?N+" public nodes, "+D.nprob+" probabilities, ":"")+"first render "+ms.toFixed(1)+" ms ("+
  t1.toFixed(0)+" ms after the page was opened)";
})();
"""


def page_html(data) -> str:
    """The whole page for the document ``data`` of :func:`view_data`."""
    e = html.escape
    title = e(data["title"])
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{title}</title><style>{_CSS}</style></head><body>\n"
        f"<h1>{title}</h1>\n{_certificate_html(data)}\n"
        '<div id="panels"></div>\n'
        f'<div id="controls"{"" if data["lab"] else " hidden"}><label>player <select id="f-player"></select></label>'
        '<label>round <select id="f-round"></select></label>'
        '<label>depth <select id="f-depth"></select></label>'
        '<label>type contains <input id="f-type" type="text" size="12"></label></div>\n'
        '<ul id="tree" class="tree top"></ul>\n<div id="list"></div>\n<div id="timing"></div>\n'
        f'<script type="application/json" id="guts-data">{_json_for_html({k: v for k, v in data.items() if k not in _DERIVED})}'
        '</script>\n'
        f'<script type="text/plain" id="guts-p">{_probabilities_b64(data["p"])}</script>\n'
        f"<script>{_JS}</script>\n</body></html>\n"
    )


def write_view(solution, game, path, *, title=None, panels=None) -> Path:
    """Write the strategy explorer of ``solution`` (a solution of ``game``) to ``path``.

    Parameters
    ----------
    solution : ExtensiveResult or Result
        E.g. ``guts.load_solution(file, game=game)`` or a solver's result.
    game : PublicTreeGame or ExplicitGame or None
        The game solved: its action and type labels name the rows and columns (``None``: a
        solution that is not of an extensive-form game, e.g. a guts coalition's thresholds).
    path : str or Path
        The HTML file, written atomically (replaced if it exists).
    title : str, optional
        The page's title (default: the game's name and the method).
    panels : list of dict, optional
        Family-specific panels (default: :func:`guts.studies.view_families.family_panels`,
        those the solution's family has: the hold'em 13 x 13 grid, Mercer bet frequencies,
        guts thresholds, continuous-poker regions).

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    GutsInputError
        The solution holds no per-information-set strategies, or they do not fit ``game``.
    """
    path = Path(os.fspath(path))
    if panels is None:
        from .view_families import family_panels

        panels = family_panels(solution, game)
    text = page_html(view_data(solution, game, title=title, panels=panels))
    with atomic_path(path) as tmp:
        Path(tmp).write_text(text, encoding="utf-8")
    return path
