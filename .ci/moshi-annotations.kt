// The two annotations of moshi (com.squareup:moshi) that openapi-generator's default Kotlin
// models use, declared with moshi's parameters so that kotlinc can check those models where
// moshi's jar cannot be fetched (.ci/generators). Only the models are compiled against them.
package com.squareup.moshi

annotation class Json(val name: String = "\u0000", val ignore: Boolean = false)

annotation class JsonClass(val generateAdapter: Boolean, val generator: String = "")
