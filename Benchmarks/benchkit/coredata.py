"""A long Core Data history for the "import coredata" case: an Xcode bundle of VERSIONS versions of ENTITIES
entities, as a long-lived app's model grows: every version adds one attribute, every tenth renames one
(through Xcode's elementID), each entity has 8 attributes of mixed types, a to-one and a to-many, a fetch index.
"""
import os


def _entity(version, e, entities):
    nxt, prev = (e + 1) % entities, (e + entities - 1) % entities
    title = f"title{version // 10 * 10}" if version >= 10 and e == 0 else "title"
    title_id = "" if title == "title" else ' elementID="title"'
    lines = [
        f'    <entity name="Entity{e}" representedClassName="Entity{e}" syncable="YES" codeGenerationType="class">',
        f'        <attribute name="{title}" attributeType="String" defaultValueString="Untitled"{title_id}/>',
        '        <attribute name="count" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>',
        '        <attribute name="created" optional="YES" attributeType="Date" defaultDateTimeInterval="700000000" usesScalarValueType="NO"/>',
        '        <attribute name="flag" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>',
        '        <attribute name="id" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>',
        '        <attribute name="note" optional="YES" attributeType="String" maxValueString="500" regularExpressionString="[^&lt;]*"/>',
        '        <attribute name="price" optional="YES" attributeType="Decimal" defaultValueString="0.0"/>',
        '        <attribute name="score" optional="YES" attributeType="Double" minValueString="0" maxValueString="100" usesScalarValueType="YES"/>',
    ]
    lines += [f'        <attribute name="extra{added}" optional="YES" attributeType="String"/>'
              for added in range(e + 1, version + 1, entities)]
    lines += [
        f'        <relationship name="next" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Entity{nxt}" '
        f'inverseName="previous" inverseEntity="Entity{nxt}"/>',
        f'        <relationship name="previous" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Entity{prev}" '
        f'inverseName="next" inverseEntity="Entity{prev}"/>',
        '        <fetchIndex name="byCount">',
        '            <fetchIndexElement property="count" type="Binary" order="ascending"/>',
        '        </fetchIndex>',
        '    </entity>',
    ]
    return lines


def contents(version, entities):
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
             '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" '
             'systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">']
    for e in range(entities):
        lines += _entity(version, e, entities)
    lines += ['    <elements/>', '</model>']
    return "\n".join(lines) + "\n"


def write_bundle(directory, versions=117, entities=80):
    """Writes directory/Big.xcdatamodeld (once per shape) and returns its path."""
    path = os.path.join(directory, f"Big-{versions}x{entities}.xcdatamodeld")
    marker = os.path.join(path, ".xccurrentversion")
    if os.path.exists(marker):
        return path
    for version in range(1, versions + 1):
        folder = os.path.join(path, f"Big {version}.xcdatamodel")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "contents"), "w", encoding="utf-8") as f:
            f.write(contents(version, entities))
    with open(marker, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>_XCCurrentVersionName</key>'
                f'<string>Big {versions}.xcdatamodel</string></dict></plist>\n')
    return path
