"""Numpy replica of `regress --method ssp` (issue 26): the regimes, the James-Stein centre, the two private radii
(the PrivateRadius histogram rule), one Analyze Gauss release with the constant 0.5, ridge kappa E; against AdaSSP and
an ORACLE variant (exact centre and 0.7/0.9-quantile radius: NOT private, a diagnosis of what the private steps
cost). Run: /usr/bin/python3 proto_ssp.py 1.0 (or 0.5); prints the median held-out R^2 over 20 seeds (70/30
train_test_split) on boston, diabetes, iris and wine. Not the shipped code (engine: PrivateLinearRegression).
"""
import numpy as np, sys
from sklearn import datasets
from sklearn.model_selection import train_test_split
RHO={1.0:0.024356,0.5:0.00722}  # the CLI's rho at (eps, 1e-6) by CKS20 Cor. 13 (eps 1; eps 0.5 approximately)
def tables():
    d=datasets.load_diabetes(scaled=False); yield "diabetes", d.data, d.target
    w=datasets.load_wine().data; yield "wine", w[:,1:], w[:,0]
    b=datasets.load_breast_cancer(); yield "breast", b.data, b.target.astype(float)
    i=datasets.load_iris().data; yield "iris", i[:,:3], i[:,3]
    g=datasets.load_digits().data; yield "digits", np.delete(g,36,1), g[:,36]
def sym(rng,q,s):
    z=rng.normal(0,s,(q,q)); return np.triu(z)+np.triu(z,1).T
def specbound(s,q,p=0.025): return s*(2*np.sqrt(q)+np.sqrt(2*np.log(1/p))*np.sqrt(2))
def l2clip(x,C):
    nr=np.linalg.norm(x,axis=1); return x*np.minimum(1,C/np.maximum(nr,1e-300))[:,None]
def adassp(u,yy,rho,rng):
    n,p=u.shape; Bx=np.sqrt(p)
    z=np.hstack([l2clip(u,Bx)/Bx,np.ones((n,1))]); q=p+1
    s=np.sqrt(2)*2/n/np.sqrt(2*rho/2)
    A=z.T@z/n+sym(rng,q,s); b=z.T@yy/n+rng.normal(0,s,q)
    E=specbound(s,q)+s*(np.sqrt(q)+np.sqrt(2*np.log(40)))
    th=np.linalg.solve(A+E*np.eye(q),b)
    return lambda U:(np.hstack([l2clip(U,Bx)/Bx,np.ones((len(U),1))])@th)
def joint(u,yy,rho,rng,mode,share_c=0.2,quant=0.9,oracle=False,k=None,ridgef=1.0,wy=1.0):
    n,p=u.shape
    v=np.hstack([u,wy*yy[:,None]]); D=p+1
    rc=rho*share_c; rs=rho-rc
    # centre: stand-in for mean --clip auto: clip around true median-ish, radius r0 = quantile of distance to box centre
    if oracle:
        m=v.mean(0)
    else:
        r0=np.quantile(np.linalg.norm(v,axis=1),0.95)
        vc=l2clip(v,r0); sc=2*r0/n/np.sqrt(2*rc)
        m=vc.mean(0)+rng.normal(0,sc,D)
    c=v-m; r=np.quantile(np.linalg.norm(c,axis=1),quant)
    c=l2clip(c,r)
    s=np.sqrt(2)*r*r/n/np.sqrt(2*rs)
    S=c.T@c/n+sym(rng,D,s)
    E=specbound(s,D)
    Sxx=S[:p,:p]; sxy=S[:p,p]
    if mode=="ridge":
        th=np.linalg.solve(Sxx+ridgef*E*np.eye(p),sxy)
    elif mode=="pcr":
        w,V=np.linalg.eigh(Sxx); w=w[::-1]; V=V[:,::-1]
        keep=w>ridgef*E if k is None else np.arange(p)<k
        th=np.zeros(p)
        for i in np.where(keep)[0]:
            th+=V[:,i]*(V[:,i]@sxy)/(w[i])
    elif mode=="pcrs":  # shrunk
        w,V=np.linalg.eigh(Sxx); w=w[::-1]; V=V[:,::-1]
        th=np.zeros(p)
        for i in range(p):
            if w[i]>E*ridgef: th+=V[:,i]*(V[:,i]@sxy)/(w[i]+E*ridgef)
    mx=m[:p]; my=m[p]
    return lambda U:(my+(U-mx)@th)/wy

from scipy.stats import norm
def cmean(v,R,rho,rng):
    n,D=v.shape; vc=l2clip(v,R); return vc.mean(0)+rng.normal(0,2*R/n/np.sqrt(2*rho),D)
def prad(dist,cap,rho,rng,octs=10,steps=4,minrows=2.5):
    B=octs*steps+1; s=np.ceil(max(1,1/np.sqrt(rho))); T=s*norm.isf(1e-3/B)
    n=len(dist)
    if n<minrows*T: return cap
    edges=cap*2.0**((np.arange(B)-B+1)/steps)
    b=np.searchsorted(edges,dist); b=np.minimum(b,B-1)
    cnt=np.bincount(b,minlength=B)+rng.normal(0,s,B)
    ok=np.where(cnt>T)[0]
    return cap if len(ok)==0 else edges[ok.max()]
def cj(u,yy,rho,rng,sh=(0.1,0.1,0.1),ridgef=1.0,cmode="auto",cap2=True):
    n,p=u.shape; su,sy,sr=sh; ss=1-su-sy-sr
    if cmode=="auto":  # mean --clip auto-ish: radius around box centre from histogram (half the share), mean clipped at it
        ru=prad(np.linalg.norm(u,axis=1),np.sqrt(p),rho*su/2,rng,octs=6,steps=1); mx=cmean(u,ru,rho*su/2,rng)
        ry=prad(np.abs(yy),1.0,rho*sy/2,rng,octs=6,steps=1); my=cmean(yy[:,None],ry,rho*sy/2,rng)[0]
    else:
        mx=cmean(u,np.sqrt(p),rho*su,rng); my=cmean(yy[:,None],1.0,rho*sy,rng)[0]
    v=np.hstack([u-mx,(yy-my)[:,None]])
    cap=2*np.sqrt(p+1)
    r=prad(np.linalg.norm(v,axis=1),cap,rho*sr,rng)
    v=l2clip(v,r); D=p+1
    s=np.sqrt(2)*r*r/n/np.sqrt(2*rho*ss)
    S=v.T@v/n+sym(rng,D,s); E=specbound(s,D)
    th=np.linalg.solve(S[:p,:p]+ridgef*E*np.eye(p),S[:p,p])
    return lambda U:(my+(U-mx)@th)
def aug(u,yy,rho,rng,sr=0.1,a=1.0,penc=1.0,ridgef=1.0):
    n,p=u.shape
    v=np.hstack([u,yy[:,None]])
    r=prad(np.linalg.norm(v,axis=1),np.sqrt(p+1),rho*sr,rng)
    v=l2clip(v,r)
    z=np.hstack([v[:,:p],a*np.ones((n,1)),v[:,p:]]); D=p+2
    s=np.sqrt(2)*(r*r+a*a)/n/np.sqrt(2*rho*(1-sr))
    S=z.T@z/n+sym(rng,D,s); E=specbound(s,D)
    q=p+1; pen=np.ones(q); pen[p]=penc
    th=np.linalg.solve(S[:q,:q]+ridgef*E*np.diag(pen),S[:q,q])
    return lambda U:(np.hstack([U,a*np.ones((len(U),1))])@th)
def searchable(n,rho):
    s=np.ceil(max(1,1/np.sqrt(rho))); T=s*norm.isf(1e-3/41); return n>=2.5*T
def tables():
    import os
    from sklearn import datasets as D
    t=np.loadtxt(os.path.join(os.path.dirname(D.__file__),"data","boston_house_prices.csv"),delimiter=",",skiprows=2)
    yield "boston", t[:,:-1], t[:,-1]
    d=D.load_diabetes(scaled=False); yield "diabetes", d.data, d.target
    i=D.load_iris().data; yield "iris", i[:,:3], i[:,3]
    w=D.load_wine().data; yield "wine", w[:,1:], w[:,0]
def ssp(u,yy,rho,rng,a=0.5,kbox=2.0,kbr=1.0,kc=1.0,brs=0.25):
    n,p=u.shape; D=p+1; R0=np.sqrt(D)
    v=np.hstack([u,yy[:,None]])
    if searchable(n,rho*0.1):
        ss=0.75; sig=2*R0/n/np.sqrt(2*rho*0.05)
        m=v.mean(0)+rng.normal(0,sig,D); f=max(0.0,1-(D-2)*sig*sig/(m@m)); c=f*m
        if np.linalg.norm(c)>R0: c=c*R0/np.linalg.norm(c)
        r0=prad(np.linalg.norm(v,axis=1),R0,rho*0.1,rng)
        cap=R0+np.linalg.norm(c); r1=prad(np.linalg.norm(v-c,axis=1),cap,rho*0.1,rng)
        if r1*2**0.25<=r0: r=r1
        else: c=np.zeros(D); r=r0
        k=kc
    elif searchable(n,rho*brs):
        ss=1-brs; c=np.zeros(D); r=prad(np.linalg.norm(v,axis=1),R0,rho*brs,rng); k=kbr
    else:
        ss=1; c=np.zeros(D); r=R0; k=kbox
    w=l2clip(v-c,r)
    z=np.hstack([w[:,:p],a*np.ones((n,1)),w[:,p:]])
    s=np.sqrt(2)*(r*r+a*a)/n/np.sqrt(2*rho*ss)
    S=z.T@z/n+sym(rng,D+1,s); E=specbound(s,D+1)
    q=p+1
    th=np.linalg.solve(S[:q,:q]+k*E*np.eye(q),S[:q,q])
    return lambda U:(c[p]+np.hstack([U-c[:p],a*np.ones((len(U),1))])@th)
def j2(u,yy,rho,rng,quant=0.9,ridgef=1.0):
    n,p=u.shape; mx=u.mean(0); my=yy.mean()
    v=np.hstack([u-mx,(yy-my)[:,None]]); r=np.quantile(np.linalg.norm(v,axis=1),quant)
    v=l2clip(v,r); D=p+1; s=np.sqrt(2)*r*r/n/np.sqrt(2*rho)
    S=v.T@v/n+sym(rng,D,s); E=specbound(s,D)
    th=np.linalg.solve(S[:p,:p]+ridgef*E*np.eye(p),S[:p,p])
    return lambda U:(my+(U-mx)@th)
def run(eps,seeds=20,methods=None):
    rho=RHO[eps]
    for name,X,y in tables():
        lo,hi=X.min(0),X.max(0); h=np.where(hi>lo,(hi-lo)/2,1); cx=(lo+hi)/2
        ylo,yhi=y.min(),y.max(); cy=(ylo+yhi)/2; hy=(yhi-ylo)/2
        res={}
        for sd in range(seeds):
            Xtr,Xte,ytr,yte=train_test_split(X,y,test_size=0.3,random_state=sd)
            u=(Xtr-cx)/h; yy=(ytr-cy)/hy; ut=(Xte-cx)/h
            vt=((yte-yte.mean())**2).mean()
            A=np.hstack([Xtr,np.ones((len(Xtr),1))]); t=np.linalg.lstsq(A,ytr,rcond=None)[0]
            res.setdefault("ols",[]).append(1-((np.hstack([Xte,np.ones((len(Xte),1))])@t-yte)**2).mean()/vt)
            for lab,f in methods.items():
                rng=np.random.default_rng(1000+sd)
                g=f(u,yy,rho,rng)
                pr=g(ut)*hy+cy
                res.setdefault(lab,[]).append(1-((pr-yte)**2).mean()/vt)
        print(f"eps={eps} {name:9s} n={len(X)} p={X.shape[1]} "+" ".join(f"{k}={np.median(v):.3f}" for k,v in res.items()),flush=True)

M={"ada":adassp,"ssp":ssp,"oracle_q.9":j2,"oracle_q.7":lambda u,y,r,g:j2(u,y,r,g,quant=0.7)}
if __name__=="__main__": run(float(sys.argv[1]),20,M)
