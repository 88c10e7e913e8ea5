import numpy as np
exec(open("proto.py").read().split("def main")[0])
def fit3(xs,ys,rho,rng,Cx=None,shares=(0.4,0.6),mode="grid",Cq=None,lmin=False):
    n,p=xs.shape
    if Cq is not None: Cx=np.quantile(np.linalg.norm(xs,axis=1),Cq)
    if Cx is None: Cx=np.sqrt(p)
    X=np.hstack([l2clip(xs,Cx),np.ones((n,1))]); B2=Cx**2+1; B=np.sqrt(B2); Y=ys; By=1.0
    q=p+1
    if lmin: rA,rb,rl=rho/3,rho/3,rho/3
    else: rA,rb=[rho*s for s in shares]
    sA=np.sqrt(2)*B2/np.sqrt(2*rA); sb=2*B*By/np.sqrt(2*rb)
    A0=X.T@X
    A=A0+sym(rng,q,sA); b=X.T@Y+rng.normal(0,sb,q)
    E=specbound(sA,q)
    w,V=np.linalg.eigh(A); vb=V.T@b
    if mode=="ada":
        if lmin:
            sl=B2/np.sqrt(2*rl); lm=max(np.linalg.eigvalsh(A0)[0]+sl*rng.normal()-sl*np.sqrt(2*np.log(6/1e-6)),0)
            lam=max(0,E-lm)
        else: lam=max(E,2*E-w[0])
        d=w+lam; d=np.maximum(d,1e-3*E); return V@(vb/d)
    best=None
    for lam in E*np.geomspace(0.25,1e4,50):
        d=w+lam
        if d.min()<=0.05*E: continue
        th=V@(vb/d)
        R=-2*th@b+2*sb**2*np.sum(1/d)+th@A@th
        if best is None or R<best[0]: best=(R,th)
    return best[1]
def run(**kw):
    out=[]
    for eps in [1.0,0.5]:
        rho=rho_of(eps,1e-6)
        for name,X,y in tables():
            lo,hi=X.min(0),X.max(0); ylo,yhi=y.min(),y.max()
            r=[]
            for s in range(20):
                Xtr,Xte,ytr,yte=train_test_split(X,y,test_size=0.2,random_state=s)
                rng=np.random.default_rng(1000+s)
                xs,ys,c,h,yc,yh=boxscale(Xtr,ytr,lo,hi,ylo,yhi)
                th=fit3(xs,ys,rho,rng,**kw)
                pr=(np.hstack([np.clip((Xte-c)/h,-1,1),np.ones((len(Xte),1))])@th)*yh+yc
                r.append(1-((pr-yte)**2).mean()/((yte-yte.mean())**2).mean())
            out.append(np.median(r))
    return " ".join(f"{v:6.3f}" for v in out)
for lab,kw in [("ada faithful",dict(mode="ada",lmin=True)),("ada noLmin",dict(mode="ada")),("grid",dict()),
               ("grid q.9",dict(Cq=0.9)),("grid q.5",dict(Cq=0.5)),("grid q1",dict(Cq=1.0)),("ada q.9",dict(mode="ada",Cq=0.9)),
               ("grid q.9 .3/.7",dict(Cq=0.9,shares=(0.3,0.7))),("grid q.9 .5/.5",dict(Cq=0.9,shares=(0.5,0.5)))]:
    print(f"{lab:20s}", run(**kw))
