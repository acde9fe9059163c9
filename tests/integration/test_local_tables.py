"""The local runtime's tables on data an earlier `make run` left: an index the template gained
since is created and filled from the items already there (as CloudFormation's update would)."""

from __future__ import annotations

import copy
import secrets

from local.tables import add_missing_indexes, dynamodb_client, ensure_tables
from local.template import Template


def test_an_index_added_to_the_template_is_created_on_an_existing_table(
    ddb_endpoint: str,
) -> None:
    client = dynamodb_client(ddb_endpoint)
    spec = copy.deepcopy(Template().table_definitions()["GameTable"]["spec"])
    name = f"OldGameTable{secrets.token_hex(4)}"
    spec["TableName"] = name
    spec.pop("StreamSpecification", None)
    newest = spec["GlobalSecondaryIndexes"][-1]
    kept = spec["GlobalSecondaryIndexes"][:-1]
    used = {k["AttributeName"] for i in [spec, *kept] for k in i["KeySchema"]}
    older = dict(
        spec,
        GlobalSecondaryIndexes=kept,
        AttributeDefinitions=[
            a for a in spec["AttributeDefinitions"] if a["AttributeName"] in used
        ],
    )
    client.create_table(**older)
    try:
        keys = {k["AttributeName"]: k["KeyType"] for k in newest["KeySchema"]}
        types = {a["AttributeName"]: a["AttributeType"] for a in spec["AttributeDefinitions"]}
        item = {"pk": {"S": "OLD#1"}, "sk": {"S": "OLD"}}
        item.update({k: {types[k]: "1" if types[k] == "N" else "x"} for k in keys})
        client.put_item(TableName=name, Item=item)

        assert add_missing_indexes(client, spec) == [newest["IndexName"]]
        assert add_missing_indexes(client, spec) == []  # the next start finds it there
        hash_key = next(k for k, kind in keys.items() if kind == "HASH")
        found = client.query(
            TableName=name,
            IndexName=newest["IndexName"],
            KeyConditionExpression="#k = :v",
            ExpressionAttributeNames={"#k": hash_key},
            ExpressionAttributeValues={":v": item[hash_key]},
        )["Items"]
        assert [i["pk"]["S"] for i in found] == ["OLD#1"]
    finally:
        client.delete_table(TableName=name)


def test_ensure_tables_twice_changes_nothing(ddb_endpoint: str) -> None:
    client = dynamodb_client(ddb_endpoint)
    before = client.describe_table(TableName="GameTable")["Table"]["GlobalSecondaryIndexes"]
    ensure_tables(ddb_endpoint)
    after = client.describe_table(TableName="GameTable")["Table"]["GlobalSecondaryIndexes"]
    assert sorted(i["IndexName"] for i in after) == sorted(i["IndexName"] for i in before)
