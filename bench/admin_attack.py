"""Issue 30's admin attacks, replayed from outside through the admin's own forms (docs/security.md, "Fair play").

    .venv/bin/python bench/admin_attack.py http://127.0.0.1:8400 OLGAS_PASSWORD ADMINS_PASSWORD

As the demo's organizer olga: three new entries through the entry inline (one a house bot on
alice's entry) into a scheduled Dudo tournament set to two entries, the same through "add players",
then two players and a house bot; olga's and the superuser's download of a finished Dudo game's
full record.
"""

import re
import sys
from html.parser import HTMLParser

import requests

BASE, PASSWORD = sys.argv[1], sys.argv[2]


class Form(HTMLParser):
    def __init__(self):
        super().__init__()
        self.fields = {}
        self.select = None
        self.text = None

    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "input" and a.get("name") and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.fields[a["name"]] = a.get("value", "")
        elif tag == "select" and a.get("name"):
            self.select = a["name"]
            self.fields.setdefault(a["name"], "")
        elif tag == "option" and self.select and "selected" in a:
            self.fields[self.select] = a.get("value", "")
        elif tag == "textarea" and a.get("name"):
            self.text = a["name"]
            self.fields[a["name"]] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        if tag == "textarea":
            self.text = None

    def handle_data(self, data):
        if self.text:
            self.fields[self.text] += data


def form_of(s, url):
    p = Form()
    p.feed(s.get(url).text)
    return p.fields


s = requests.Session()
login = f"{BASE}/admin/login/"
fields = form_of(s, login)
r = s.post(
    login, data={**fields, "username": "olga", "password": PASSWORD, "next": "/admin/"}, headers={"Referer": login}
)
print("olga signs in to the admin:", r.url.endswith("/admin/"), "| apps:", re.findall(r'class="model-(\w+)', r.text))
lst = s.get(f"{BASE}/admin/tournaments/tournament/").text
ids = re.findall(r"/admin/tournaments/tournament/(\d+)/change/", lst)
tid = next(
    i
    for i in ids
    if requests.get(f"{BASE}/api/tournaments/{i}/").json()["status"] == "scheduled"
    and requests.get(f"{BASE}/api/tournaments/{i}/").json()["game"] == "dudo"
)
url = f"{BASE}/admin/tournaments/tournament/{tid}/change/"
f = form_of(s, url)
print("tournament", tid, "entry forms:", f.get("entries-TOTAL_FORMS"), "max_entries:", f.get("max_entries"))
# players to enter: three ordinary accounts, by id from the admin's own user search is not open to olga; use the API
ids = {}
for name in ("alice", "bob", "carol"):
    ids[name] = requests.get(f"{BASE}/api/accounts/{name}/").json().get("id")
f.update({"max_entries": "2", "rounds": "1", "table_size": "2", "entries-TOTAL_FORMS": "3"})
for i, name in enumerate(("alice", "bob", "carol")):
    f.update(
        {
            f"entries-{i}-user": str(ids[name]),
            f"entries-{i}-tournament": tid,
            f"entries-{i}-house_bot": "heuristic" if i == 0 else "",
        }
    )
r = s.post(url, data=f, headers={"Referer": url})
print(
    "inline post with 3 new entries (one as a house bot on alice):",
    r.status_code,
    "->",
    r.url,
    re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', r.text)[:3],
)
api = requests.get(f"{BASE}/api/tournaments/{tid}/").json()
print("entries after:", api["entries"], "max_entries:", api["max_entries"], "players:", api["players"])
f = form_of(s, url)
f.update({"max_entries": "2", "rounds": "1", "table_size": "2", "add_players": "alice, bob, carol"})
r = s.post(url, data=f, headers={"Referer": url})
err = re.findall(r'class="errornote">(.*?)<|<li>([^<]*this tournament takes[^<]*)</li>', r.text)
print("add_players alice, bob, carol into max 2:", r.status_code, err)
api = requests.get(f"{BASE}/api/tournaments/{tid}/").json()
print("entries after:", api["entries"], "max_entries:", api["max_entries"], "players:", api["players"])
# the hidden-hand export of a finished Dudo match
for mid in range(1, 12):
    m = requests.get(f"{BASE}/api/matches/{mid}/").json()
    if m.get("game") == "dudo" and m.get("status") == "finished":
        break
print(f"olga's export of finished Dudo match {mid}:", s.get(f"{BASE}/api/matches/{mid}/replay/").status_code)
f = form_of(s, url)
f.update({"add_players": "alice, bob"})
r = s.post(url, data=f, headers={"Referer": url})
f = form_of(s, url)
f.update({"add_house_bots": "heuristic"})
r = s.post(url, data=f, headers={"Referer": url})
print(
    "then alice, bob, then a house bot:",
    re.findall(r"<li>([^<]*this tournament takes[^<]*)</li>", r.text),
    requests.get(f"{BASE}/api/tournaments/{tid}/").json()["players"],
)
root = requests.Session()
fields = form_of(root, login)
root.post(
    login, data={**fields, "username": "admin", "password": sys.argv[3], "next": "/admin/"}, headers={"Referer": login}
)
print(f"superuser's export of Dudo match {mid}:", root.get(f"{BASE}/api/matches/{mid}/replay/").status_code)
