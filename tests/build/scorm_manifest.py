"""Reading a SCORM 1.2 package as an LMS would: its manifest, checked for what the standard
requires, and what its launch page opens. Shared by the package tests in tests/build/."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
import zipfile

CP = "{http://www.imsproject.org/xsd/imscp_rootv1p1p2}"
ADLCP = "{http://www.adlnet.org/xsd/adlcp_rootv1p2}"


def checked_manifest(archive: zipfile.ZipFile) -> dict:
    """The manifest's launch, parameters and mastery score, after checking SCORM 1.2's required
    structure and that the files it lists are exactly those in the zip (less itself)."""
    root = ET.fromstring(archive.read("imsmanifest.xml"))
    assert root.tag == f"{CP}manifest" and root.get("identifier")
    assert root.findtext(f"{CP}metadata/{CP}schema") == "ADL SCORM"
    assert root.findtext(f"{CP}metadata/{CP}schemaversion") == "1.2"
    organizations = root.find(f"{CP}organizations")
    organization = organizations.find(f"{CP}organization")
    assert organizations.get("default") == organization.get("identifier")
    assert organization.findtext(f"{CP}title")
    items = organization.findall(f"{CP}item")
    assert len(items) == 1 and items[0].findtext(f"{CP}title")
    resources = root.findall(f"{CP}resources/{CP}resource")
    assert len(resources) == 1
    resource = resources[0]
    assert items[0].get("identifierref") == resource.get("identifier")
    assert resource.get("type") == "webcontent" and resource.get(f"{ADLCP}scormtype") == "sco"
    listed = [file.get("href") for file in resource.findall(f"{CP}file")]
    assert len(listed) == len(set(listed))
    in_zip = [name for name in archive.namelist() if name != "imsmanifest.xml"]
    assert sorted(listed) == sorted(in_zip)
    assert resource.get("href") in listed
    assert archive.testzip() is None  # every entry's CRC checks out
    mastery = items[0].findtext(f"{ADLCP}masteryscore")
    # adlcp's order within an item: datafromlms before masteryscore
    tags = [child.tag for child in items[0]]
    if f"{ADLCP}datafromlms" in tags:
        assert tags.index(f"{ADLCP}datafromlms") < tags.index(f"{ADLCP}masteryscore")
    return {
        "launch": resource.get("href"),
        "parameters": items[0].get("parameters"),
        "mastery": mastery,
        "launch_data": items[0].findtext(f"{ADLCP}datafromlms"),
        "title": items[0].findtext(f"{CP}title"),
        "files": listed,
    }


def launch_target(launch_html: str) -> tuple[str, str]:
    """The page and query a package's launch.html opens (its app/lms/launch.js tag's data)."""
    tag = re.search(r'<script src="app/lms/launch.js" ([^>]*)></script>', launch_html)
    assert tag, "launch.html loads app/lms/launch.js"
    data = dict(re.findall(r'data-(page|query)="([^"]*)"', tag.group(1)))
    return html.unescape(data["page"]), html.unescape(data["query"])
