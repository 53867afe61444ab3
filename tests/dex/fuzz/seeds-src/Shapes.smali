# Seed for the dex fuzz target (assembled by tests/dex/fuzz/make_seeds.sh): the shapes
# the editor must keep straight: switches, array data, tries and catch-alls, monitors,
# wide values, constructors, debug info, annotations, static values.
.class public Ltc/seed/Shapes;
.super Ljava/lang/Object;
.source "Shapes.java"

.annotation system Ldalvik/annotation/MemberClasses;
    value = {
        Ltc/seed/Shapes$Inner;
    }
.end annotation

.field public static final NAME:Ljava/lang/String; = "caf\u00e9 \ud83d\ude00"
.field private count:J

.method public constructor <init>(J)V
    .registers 4
    .param p1, "count"
    .prologue
    .line 10
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    .line 11
    iput-wide p1, p0, Ltc/seed/Shapes;->count:J
    return-void
.end method

.method public static pick(I)I
    .registers 3
    .line 20
    packed-switch p0, :pswitch_data
    const/4 v0, -0x1
    :goto_0
    return v0
    :pswitch_0
    const/16 v0, 0x64
    goto :goto_0
    :pswitch_1
    const/16 v0, 0xc8
    goto :goto_0
    :pswitch_data
    .packed-switch 0x1
        :pswitch_0
        :pswitch_1
    .end packed-switch
.end method

.method public static sparse(I)Ljava/lang/String;
    .registers 2
    sparse-switch p0, :sswitch_data
    const-string v0, "other"
    return-object v0
    :sswitch_0
    const-string v0, "ten"
    return-object v0
    :sswitch_1
    const-string v0, "million"
    return-object v0
    :sswitch_data
    .sparse-switch
        0xa -> :sswitch_0
        0xf4240 -> :sswitch_1
    .end sparse-switch
.end method

.method public static table()[I
    .registers 2
    const/4 v0, 0x3
    new-array v0, v0, [I
    fill-array-data v0, :array_0
    return-object v0
    :array_0
    .array-data 4
        0x1
        0x2
        0x3
    .end array-data
.end method

.method public declared-synchronized total(Ljava/lang/Object;)J
    .registers 6
    .annotation runtime Ljava/lang/Deprecated;
    .end annotation
    monitor-enter p1
    :try_start_0
    iget-wide v0, p0, Ltc/seed/Shapes;->count:J
    const-wide/16 v2, 0x2
    mul-long/2addr v0, v2
    invoke-static {v0, v1}, Ljava/lang/Long;->valueOf(J)Ljava/lang/Long;
    move-result-object v2
    invoke-virtual {v2}, Ljava/lang/Object;->hashCode()I
    monitor-exit p1
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0
    return-wide v0
    :catchall_0
    move-exception v2
    :try_start_1
    monitor-exit p1
    :try_end_1
    .catchall {:try_start_1 .. :try_end_1} :catchall_0
    throw v2
.end method

.method public static parse(Ljava/lang/String;)I
    .registers 3
    :try_start_0
    invoke-static {p0}, Ljava/lang/Integer;->parseInt(Ljava/lang/String;)I
    move-result v0
    :try_end_0
    .catch Ljava/lang/NumberFormatException; {:try_start_0 .. :try_end_0} :catch_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0
    return v0
    :catch_0
    move-exception v1
    const/4 v0, 0x0
    return v0
    :catchall_0
    move-exception v1
    throw v1
.end method

.method public static loop(I)I
    .registers 3
    const/4 v0, 0x0
    :goto_0
    if-lez p0, :cond_0
    add-int/2addr v0, p0
    add-int/lit8 p0, p0, -0x1
    goto :goto_0
    :cond_0
    return v0
.end method

.method public native nothing()V
.end method
